/**
 * Where the end-to-end stack listens and how its levers are reached. The ports are not the defaults of
 * `npm start`, so a developer's running app and the suite never clash.
 */
export const STACK = {
  bffPort: 3100,
  travelApiPort: 4110,
  identityPort: 4120,
  adminToken: 'dev-admin-token-change-me-00001',
  consumerSecret: 'dev-consumer-secret-change-me-0001',
  oidcClientSecret: 'dev-bff-client-secret-change-me-0001',
  pushWebhookSecret: 'dev-push-webhook-secret-change-me-01',
} as const;

export const APP_ORIGIN = `http://localhost:${STACK.bffPort}`;
export const TRAVEL_API_ORIGIN = `http://localhost:${STACK.travelApiPort}`;
export const IDENTITY_ORIGIN = `http://localhost:${STACK.identityPort}`;
