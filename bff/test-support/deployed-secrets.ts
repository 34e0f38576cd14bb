/**
 * Secrets of a BFF deployed on a host other than loopback, where the built-in development values are
 * refused (bff/config.ts). Spread into a test's environment next to a non-loopback PUBLIC_ORIGIN.
 */
export const DEPLOYED_SECRETS = {
  CONSUMER_SECRET: 'test-deployed-consumer-secret',
  OIDC_CLIENT_SECRET: 'test-deployed-client-secret',
  PUSH_WEBHOOK_SECRET: 'test-deployed-webhook-secret',
} as const;
