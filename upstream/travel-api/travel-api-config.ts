import path from 'node:path';
import { z } from 'zod';
import { FaultsSchema } from './faults.ts';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const positiveInt = z.coerce.number().int().positive();

/**
 * Every setting of the travel API stand-in, parsed from the environment at start-up. Every default works
 * with no variable set: the embedded setup of `npm start` on loopback.
 */
export const TravelApiEnvSchema = z.object({
  TRAVEL_API_HOST: z.string().min(1).default('localhost'),
  TRAVEL_API_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  TRAVEL_API_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  /** Folder of the sqlite database and the consumer registry. */
  TRAVEL_API_DATA_DIR: z.string().min(1).default('.data/travel-api'),
  /**
   * Serves HTTPS (HTTP/2, and HTTP/1.1 to clients that do not offer h2) with a certificate for loopback
   * signed by a local authority, both made into <data folder>/tls on first start; clients trust tls/ca.pem.
   */
  TRAVEL_API_TLS: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((value) => value === 'true' || value === '1'),

  IDENTITY_ISSUER: z.url().default('http://localhost:4020'),
  /** Signing keys of the identity platform; discovered from the issuer's metadata when unset. */
  IDENTITY_JWKS_URI: optionalText.pipe(z.url().optional()),
  TRAVEL_API_AUDIENCE: z.string().min(1).default('urn:wayfare:travel-api'),
  TRAVEL_API_JWT_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /** Minimum time between two JWKS fetches triggered by an unknown key id. */
  TRAVEL_API_JWKS_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(30),

  /** JSON file of registered consumers and their secrets; defaults to consumers.json in the data folder. */
  TRAVEL_API_CONSUMER_REGISTRY_FILE: optionalText,
  TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: z.string().min(1).default('wayfare-web'),
  TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: z.string().min(16).default('dev-consumer-secret-change-me-0001'),
  TRAVEL_API_SIGNATURE_SKEW_SECONDS: positiveInt.default(300),

  /** Longest stay (nights) that stay fares will price. */
  TRAVEL_API_MAX_NIGHTS: positiveInt.default(30),
  /** How long a stay search is remembered for the search-stream path of stay fares. */
  TRAVEL_API_SESSION_CACHE_SECONDS: positiveInt.default(1800),
  /** Lifetime of a guest session token. */
  TRAVEL_API_GUEST_SESSION_SECONDS: positiveInt.default(7200),

  /** Requests per window and consumer-and-caller key, for every /v1 route. */
  TRAVEL_API_RATE_LIMIT_MAX: positiveInt.default(600),
  /** Requests per window and key for the search routes (flights, stays), which are the expensive ones. */
  TRAVEL_API_RATE_LIMIT_SEARCH_MAX: positiveInt.default(60),
  TRAVEL_API_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),

  /** Seed of every generated datum: airports' flights, hotels, travelers' bookings and trips. */
  TRAVEL_API_SEED: z.string().min(1).default('wayfare'),
  /** Enables /admin/* (tests, demo, simulator) with this bearer token; off when unset. */
  TRAVEL_API_ADMIN_TOKEN: optionalText.pipe(z.string().min(16).optional()),

  /** Push channel to the BFF; an empty value turns it off. */
  TRAVEL_API_PUSH_WEBHOOK_URL: z
    .string()
    .default('http://localhost:3000/webhooks/travel-api/push')
    .transform((value) => (value.trim() === '' ? undefined : value))
    .pipe(z.url().optional()),
  TRAVEL_API_PUSH_WEBHOOK_SECRET: z.string().min(16).default('dev-push-webhook-secret-change-me-01'),
  /** Demo travel events for recently active travelers every N seconds; 0 turns them off. */
  TRAVEL_API_DEMO_EVENTS_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(0),
  /** Attempts (first try included) to deliver one push webhook call, with exponential back-off between. */
  TRAVEL_API_PUSH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
  /** A repeat of the same event for the same segment within this window is not pushed again. */
  TRAVEL_API_NOTIFICATION_DEDUP_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Scheme of notification deep links: <scheme>://trips/<trip_id>/segment/<segment_id>. */
  TRAVEL_API_APP_SCHEME: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*$/)
    .default('wayfare'),
  /** Pause between the events of the stay streams, so that clients render progressively; 0 in tests. */
  TRAVEL_API_STREAM_PACE_MS: z.coerce.number().int().min(0).max(10_000).default(120),
  /** SSE `retry:` sent when a notification stream opens. */
  TRAVEL_API_SSE_RETRY_MS: z.coerce.number().int().min(0).default(3000),
  /** Comment line on a quiet notification stream this often; 0 sends none. */
  TRAVEL_API_SSE_HEARTBEAT_SECONDS: z.coerce.number().int().min(0).default(15),

  TRAVEL_API_LATEST_APP_VERSION: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/)
    .default('1.0.0'),
  TRAVEL_API_MINIMUM_APP_VERSION: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/)
    .default('1.0.0'),

  /** Faults active from start-up, as JSON, e.g. {"startupInProgress":true}. */
  TRAVEL_API_FAULTS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
        return z.NEVER;
      }
    })
    .pipe(FaultsSchema.partial()),
});

export type TravelApiConfig = Omit<
  z.infer<typeof TravelApiEnvSchema>,
  'TRAVEL_API_CONSUMER_REGISTRY_FILE'
> & {
  TRAVEL_API_CONSUMER_REGISTRY_FILE: string;
};

export class TravelApiConfigError extends Error {
  override name = 'TravelApiConfigError';
}

/** Parses the environment; lists every missing or bad variable at once. */
export function loadTravelApiConfig(env: NodeJS.ProcessEnv = process.env): TravelApiConfig {
  const parsed = TravelApiEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new TravelApiConfigError(`Invalid travel API configuration:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    TRAVEL_API_CONSUMER_REGISTRY_FILE:
      parsed.data.TRAVEL_API_CONSUMER_REGISTRY_FILE ??
      path.join(parsed.data.TRAVEL_API_DATA_DIR, 'consumers.json'),
  };
}
