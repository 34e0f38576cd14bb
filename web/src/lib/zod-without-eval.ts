import { config } from 'zod';

// The CSP forbids eval. Zod probes for it when a schema is built (the probe alone is reported as a
// violation), so this module is imported before any schema exists: main.tsx imports it first.
config({ jitless: true });
