// Embedded-only credentials shared by the local processes of `npm start` and `npm run start:fleet`;
// production sets its own through the environment.

export const LOCAL_AUDIENCE = 'urn:wayfare:travel-api';

export const LOCAL_SECRETS = {
  consumerSlug: 'wayfare-web',
  consumer: process.env.WAYFARE_CONSUMER_SECRET ?? 'dev-consumer-secret-change-me-0001',
  bffClient: process.env.WAYFARE_BFF_CLIENT_SECRET ?? 'dev-bff-client-secret-change-me-0001',
  pushWebhook: process.env.WAYFARE_PUSH_WEBHOOK_SECRET ?? 'dev-push-webhook-secret-change-me-01',
  admin: 'dev-admin-token-change-me-00001',
} as const;

/** The BFF's settings for reaching the local stand-ins (besides TRAVEL_API_URL): consumer, client, webhook. */
export function bffCredentialsEnv(issuer: string, demo: boolean): Record<string, string> {
  return {
    CONSUMER_SLUG: LOCAL_SECRETS.consumerSlug,
    CONSUMER_SECRET: LOCAL_SECRETS.consumer,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_SECRET: LOCAL_SECRETS.bffClient,
    TRAVEL_API_AUDIENCE: LOCAL_AUDIENCE,
    PUSH_WEBHOOK_SECRET: LOCAL_SECRETS.pushWebhook,
    DEMO_MODE: String(demo),
    ...(demo ? { TRAVEL_API_ADMIN_TOKEN: LOCAL_SECRETS.admin } : {}),
  };
}
