import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * Settings of the identity platform stand-in, parsed from the environment at start-up. Every default is
 * the embedded setup of `npm start`: the BFF at http://localhost:3000, this server at :4020.
 */
export const IdentityConfigSchema = z.object({
  IDENTITY_HOST: z.string().default('localhost'),
  IDENTITY_PORT: z.coerce.number().int().min(0).max(65535).default(4020),
  /** The issuer URL; defaults to http://localhost:<port> (with the bound port when IDENTITY_PORT is 0). */
  IDENTITY_ISSUER: z.url().optional(),
  IDENTITY_DATA_DIR: z.string().default('.data/identity'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  IDENTITY_BFF_CLIENT_ID: z.string().min(1).default('wayfare-bff'),
  IDENTITY_BFF_CLIENT_SECRET: z.string().min(16).default('dev-bff-client-secret-change-me-0001'),
  /** The origin the traveler's browser uses for the app; the BFF's redirect URIs derive from it. */
  IDENTITY_BFF_ORIGIN: z.url().default('http://localhost:3000'),
  /** Overrides of the derived URIs (comma-separated for redirect URIs). */
  IDENTITY_BFF_REDIRECT_URIS: z.string().optional(),
  IDENTITY_BFF_POST_LOGOUT_REDIRECT_URIS: z.string().optional(),
  IDENTITY_BFF_BACKCHANNEL_LOGOUT_URI: z.url().optional(),

  /** Resource indicator of the travel API: the `aud` of access tokens. */
  TRAVEL_API_AUDIENCE: z.string().min(1).default('urn:wayfare:travel-api'),

  /** Demo mode lists the demo travelers and their passwords on the sign-in page. */
  IDENTITY_DEMO_MODE: booleanFlag.default(true),

  IDENTITY_ACCESS_TOKEN_TTL_SECONDS: seconds(600),
  IDENTITY_ID_TOKEN_TTL_SECONDS: seconds(3600),
  IDENTITY_REFRESH_TOKEN_TTL_SECONDS: seconds(24 * 60 * 60),
  IDENTITY_SESSION_TTL_SECONDS: seconds(24 * 60 * 60),
});
export type IdentityConfig = z.infer<typeof IdentityConfigSchema>;

export class IdentityConfigError extends Error {
  override name = 'IdentityConfigError';
}

/** Parses the environment; lists every bad variable at once. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const parsed = IdentityConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new IdentityConfigError(`Invalid identity configuration:\n${lines.join('\n')}`);
}

/** The longest a token signed by one key stays valid: a retired key stays published this long. */
export function signedTokenLifetimeSeconds(config: IdentityConfig): number {
  const LOGOUT_TOKEN_SECONDS = 120;
  const CLOCK_TOLERANCE_SECONDS = 60;
  return (
    Math.max(
      config.IDENTITY_ACCESS_TOKEN_TTL_SECONDS,
      config.IDENTITY_ID_TOKEN_TTL_SECONDS,
      LOGOUT_TOKEN_SECONDS,
    ) + CLOCK_TOLERANCE_SECONDS
  );
}
