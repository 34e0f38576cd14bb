import { tmpdir } from 'node:os';

/**
 * Where the end-to-end stack listens and how its levers are reached. The ports are not the defaults of
 * `npm start`, so a developer's running app and the suite never clash. `E2E_PORT_OFFSET` shifts all three,
 * so that two checkouts on one machine can run their suites at the same time.
 */
const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);

export const STACK = {
  bffPort: 3100 + PORT_OFFSET,
  travelApiPort: 4110 + PORT_OFFSET,
  identityPort: 4120 + PORT_OFFSET,
  /** The browsers' push service stand-in (e2e/support/push-service.ts): allowed by the BFF, never listened on. */
  pushServicePort: 4130 + PORT_OFFSET,
  adminToken: 'dev-admin-token-change-me-00001',
  consumerSecret: 'dev-consumer-secret-change-me-0001',
  oidcClientSecret: 'dev-bff-client-secret-change-me-0001',
  pushWebhookSecret: 'dev-push-webhook-secret-change-me-01',
} as const;

export const APP_ORIGIN = `http://localhost:${STACK.bffPort}`;
export const TRAVEL_API_ORIGIN = `http://localhost:${STACK.travelApiPort}`;
export const IDENTITY_ORIGIN = `http://localhost:${STACK.identityPort}`;

/**
 * The fleet the fleet journeys run through (`npm run start:fleet`): nginx terminating TLS in front of two
 * BFF instances on Redis. Its other ports are free ones the fleet picks.
 */
export const FLEET = {
  frontPort: 3140 + PORT_OFFSET,
  travelApiPort: 4140 + PORT_OFFSET,
  identityPort: 4150 + PORT_OFFSET,
  prometheusPort: 9140 + PORT_OFFSET,
  /** The OTLP/HTTP receiver the fleet's services export their traces to (e2e/support/otlp-receiver.ts). */
  otlpPort: 4318 + PORT_OFFSET,
} as const;

/** Where the fleet of the fleet journeys writes its ports and settings (scripts/fleet-state.ts). */
export const FLEET_STATE_FILE = `${tmpdir()}/wayfare-e2e-fleet-${FLEET.frontPort}.json`;

export const FLEET_ORIGIN = `https://localhost:${FLEET.frontPort}`;
export const FLEET_TRAVEL_API_ORIGIN = `https://localhost:${FLEET.travelApiPort}`;
export const FLEET_IDENTITY_ORIGIN = `http://localhost:${FLEET.identityPort}`;
export const FLEET_OTLP_ORIGIN = `http://127.0.0.1:${FLEET.otlpPort}`;

/**
 * The port of the instance the fleet's front passed a request to, from the response's X-Wayfare-Instance
 * (nginx's $upstream_addr: every instance tried, the one that answered last); NaN when there is none.
 */
export function answeringPort(headers: Record<string, string>): number {
  return Number(headers['x-wayfare-instance']?.split(/,\s*/).at(-1)?.split(':').at(-1));
}
