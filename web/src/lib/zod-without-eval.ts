import { config } from 'zod/v4';

// The CSP forbids eval. Zod probes for it when a schema is built (the probe alone is reported as a
// violation). The SPA's build resolves `zod` to this module (vite.config.ts), so whichever chunk first
// loads zod turns the probe off before any of its importers builds a schema. Zod loads only with the
// code that checks what no server checked (relayed fares, other tabs' messages, URL parameters): with
// the hotel's pages, which read relayed fares as they draw, and elsewhere when there is first something
// to check (docs/decisions.md, "Which answers the SPA checks").
config({ jitless: true });

export * from 'zod/v4';
