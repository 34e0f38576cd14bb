import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SessionEncryptionKeysSchema } from './sessions/session-cipher.ts';
import { redisSettingIssues, RedisSentinelsSchema } from './redis/redis-target.ts';
import { REOPEN_CONCURRENCY, REOPEN_TURN_MS } from './notifications/notification-hub.ts';
import {
  DEFAULT_PUSH_ENDPOINT_ORIGINS,
  PushEndpointOriginsSchema,
  pushEndpointSettingIssues,
} from './push/push-endpoint-policy.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/**
 * Every setting of the BFF, parsed from the environment at start-up. Every default is the embedded
 * setup of `npm start`: the stand-ins on loopback. Production points the URLs and secrets elsewhere.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** The origin the browser uses; cookies, CSRF checks and redirect URIs derive from it. */
  PUBLIC_ORIGIN: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prometheus metrics (GET /metrics) on a listener of their own, never behind the front; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Folder for the embedded stores (sessions, delivery ledger, push subscriptions). */
  DATA_DIR: z.string().default('.data/bff'),
  /** Folder of the built SPA; served when present. */
  WEB_DIST_DIR: z.string().default('dist/web'),
  /**
   * With both set, the BFF serves HTTPS: HTTP/2 to browsers that offer it, HTTP/1.1 to the others.
   * Without them it serves plain HTTP/1.1 (behind a TLS front, or on loopback).
   */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),

  TRAVEL_API_URL: z.url().default('http://localhost:4010'),
  /**
   * A PEM file of certificate authorities trusted for an https TRAVEL_API_URL, besides the system's
   * (a private authority, or the stand-in's local one). Verification itself is never turned off.
   */
  TRAVEL_API_CA_FILE: z.string().min(1).optional(),
  CONSUMER_SLUG: z.string().min(1).default('wayfare-web'),
  CONSUMER_SECRET: z.string().min(16).default('dev-consumer-secret-change-me-0001'),
  /** The next secret during a rotation; see the README's rotation runbook. */
  CONSUMER_NEXT_SECRET: z.string().min(16).optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** How long the waits between retries of one upstream call may add up to (503 RETRY_LATER, network). */
  UPSTREAM_RETRY_BUDGET_MS: z.coerce.number().int().min(0).default(2_000),
  /**
   * A rebooking whose cancel of the replaced booking failed retries it after this wait, doubling up to a
   * minute, at most REBOOKING_CANCEL_ATTEMPTS times in all before it is left to support.
   */
  REBOOKING_CANCEL_RETRY_MS: z.coerce.number().int().positive().default(2_000),
  REBOOKING_CANCEL_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
  /** Per-session quotas of the expensive routes: flight and stay search, and stay fares. */
  RATE_LIMIT_SEARCH_PER_MINUTE: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_FARES_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** Per client address, on each route that answers without a session (update check, readiness). */
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /** How long the update check's answer for callers without a traveler is kept and shared (0: never). */
  UPDATE_CHECK_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),

  OIDC_ISSUER: z.url().default('http://localhost:4020'),
  OIDC_CLIENT_ID: z.string().min(1).default('wayfare-bff'),
  OIDC_CLIENT_SECRET: z.string().min(16).default('dev-bff-client-secret-change-me-0001'),
  /** Resource indicator (audience) of the travel API's access tokens. */
  TRAVEL_API_AUDIENCE: z.string().min(1).default('urn:wayfare:travel-api'),

  SESSION_IDLE_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 60),
  SESSION_ABSOLUTE_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 60 * 60),
  /** Access tokens are refreshed when they expire within this many seconds. */
  OIDC_REFRESH_LEEWAY_SECONDS: z.coerce.number().int().min(0).default(60),
  /** How often expired sessions are swept (and their streams told to close). */
  SESSION_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().default(60),

  /** Shared secret of the travel API's push webhook (HMAC, same scheme as request signing). */
  PUSH_WEBHOOK_SECRET: z.string().min(16).default('dev-push-webhook-secret-change-me-01'),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().default('mailto:ops@wayfare.example'),
  /** Seconds a push service keeps an undelivered Web Push (RFC 8030 TTL). */
  PUSH_TTL_SECONDS: z.coerce.number().int().min(0).default(3600),
  PUSH_SEND_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  PUSH_MAX_SUBSCRIPTIONS_PER_TRAVELER: z.coerce.number().int().positive().default(10),
  /**
   * The push services whose endpoints are stored and sent to (comma-separated origins, `https://*.x.com`
   * for any name below one); every address of an endpoint's host must also be public.
   */
  PUSH_ENDPOINT_ORIGINS: PushEndpointOriginsSchema.prefault(DEFAULT_PUSH_ENDPOINT_ORIGINS),
  /**
   * Development and tests only (a loopback PUBLIC_ORIGIN): lets an allowed origin be a push service on
   * this machine (loopback addresses, plain http), for the local push service stand-ins.
   */
  PUSH_ENDPOINT_ALLOW_LOOPBACK: booleanFlag.default(false),

  /** Browser SSE streams: heartbeat comment interval, unsent-bytes cut-off and how long a full socket may stay full. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(15_000),
  SSE_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  SSE_DRAIN_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Silence of an upstream stay search or fares stream after which the relay ends it as truncated. */
  SSE_RELAY_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Fares streams the priced stay search (POST /api/stays/priced-search) holds open at once per search. */
  STAY_FARES_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /**
   * On SIGTERM the BFF drains (bff/plugins/drain.ts): how long the requests in flight may take to finish
   * before it closes anyway.
   */
  SHUTDOWN_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  /** The `retry:` a browser is given when the BFF shuts down and asks it to reconnect. */
  SSE_SHUTDOWN_RETRY_MS: z.coerce.number().int().min(0).default(2_000),
  /** Notification streams one session may hold open at once (tabs of one browser). */
  SSE_MAX_STREAMS_PER_SESSION: z.coerce.number().int().positive().default(16),
  /** How long a traveler's upstream notification stream stays open after their last browser stream closed. */
  NOTIFICATION_HUB_LINGER_MS: z.coerce.number().int().min(0).default(10_000),
  NOTIFICATION_RECONNECT_BASE_MS: z.coerce.number().int().positive().default(1_000),
  NOTIFICATION_RECONNECT_CAP_MS: z.coerce.number().int().positive().default(30_000),
  /** Silence on an upstream notification stream (not even a heartbeat) after which it is reopened. */
  NOTIFICATION_UPSTREAM_IDLE_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * Upstream notification streams one instance opens and catches up at a time: after a travel API
   * restart, or when it takes over a fleet's travelers, the rest wait their turn.
   */
  NOTIFICATION_REOPEN_CONCURRENCY: z.coerce.number().int().positive().default(REOPEN_CONCURRENCY),
  /**
   * The longest one of those opens keeps its place: an open the travel API never answers lets the next
   * one go after this long, not after the call's whole UPSTREAM_TIMEOUT_MS.
   */
  NOTIFICATION_REOPEN_TURN_MS: z.coerce.number().int().positive().default(REOPEN_TURN_MS),
  /**
   * How long a push decision waits for the hubs holding the traveler's browser streams to have shown the
   * notification (or not) before it decides without them.
   */
  NOTIFICATION_SHOWN_WAIT_MS: z.coerce.number().int().positive().default(1_000),

  /** Demo mode: shows the demo panel; only meaningful against the stand-ins. */
  DEMO_MODE: booleanFlag.default(false),
  /** Admin API of the travel API stand-in, used by the demo panel. */
  TRAVEL_API_ADMIN_TOKEN: z.string().optional(),

  /** When set, shared state (sessions, hub, ledger, rate limits, push subscriptions) lives in Redis. */
  REDIS_URL: z.string().optional(),
  /**
   * Instead of REDIS_URL, a primary with replicas under Redis Sentinel: the Sentinels (`host:port,...`),
   * which name the current primary and promote a replica when it fails. Shared state then lives there.
   */
  REDIS_SENTINELS: RedisSentinelsSchema.optional(),
  /** With REDIS_SENTINELS: the name the Sentinels monitor the primary under (`sentinel monitor <name>`). */
  REDIS_SENTINEL_NAME: z.string().min(1).optional(),
  /** With REDIS_SENTINELS: the Sentinels' own credentials, when they ask for them. */
  REDIS_SENTINEL_USERNAME: z.string().min(1).optional(),
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  /** With REDIS_SENTINELS: the primary's and replicas' credentials (an ACL user); REDIS_URL carries its own. */
  REDIS_USERNAME: z.string().min(1).optional(),
  REDIS_PASSWORD: z.string().min(1).optional(),
  /** With REDIS_SENTINELS: TLS to the Sentinels, the primary and the replicas (REDIS_URL: `rediss://`). */
  REDIS_TLS: booleanFlag.default(false),
  /**
   * Behind a load balancer: the front's own addresses (comma-separated addresses or CIDRs) whose
   * X-Forwarded-For is believed, so per-address limits count browsers, not the balancer. The client is the
   * right-most hop that is not one of them; a hop that is not an IP address is never believed.
   */
  TRUST_PROXY: z.string().min(1).optional(),
  /** With REDIS_URL: `id:base64key,...` (32-byte AES keys); the first seals session data, all open it. */
  SESSION_ENCRYPTION_KEYS: SessionEncryptionKeysSchema.optional(),
  /** Prefix of every Redis key and channel, so that several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().default('wayfare:'),
  /** A Redis command that has not answered within this time fails the request with 503 RETRY_LATER. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(1_000),
  /** With REDIS_URL: how long a traveler's upstream notification stream stays with a silent instance. */
  NOTIFICATION_LEASE_MS: z.coerce.number().int().min(300).default(5_000),
  /** With REDIS_URL: the longest one instance may hold a session's token refresh before another retries. */
  REFRESH_LOCK_MS: z.coerce.number().int().positive().default(10_000),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Settings that only mean something together. */
function pairingIssues(config: Config): string[] {
  if ((config.TLS_CERT_FILE === undefined) === (config.TLS_KEY_FILE === undefined)) return [];
  return ['TLS_CERT_FILE, TLS_KEY_FILE: set both (HTTPS) or neither (plain HTTP)'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Secrets whose built-in values exist only so that `npm start` works on loopback with no setup. */
const DEVELOPMENT_SECRETS = ['CONSUMER_SECRET', 'OIDC_CLIENT_SECRET', 'PUSH_WEBHOOK_SECRET'] as const;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A BFF that browsers reach on anything but loopback must not run on the published development secrets. */
function developmentSecretIssues(config: Config): string[] {
  if (LOOPBACK_HOSTS.has(new URL(config.PUBLIC_ORIGIN).hostname)) return [];
  return DEVELOPMENT_SECRETS.filter((name) => config[name] === ConfigSchema.shape[name].parse(undefined)).map(
    (name) => `${name}: the built-in development value only serves a loopback PUBLIC_ORIGIN; set your own`,
  );
}

/** Parses the environment; lists every missing or bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  const issues = parsed.success
    ? [
        ...pairingIssues(parsed.data),
        ...developmentSecretIssues(parsed.data),
        ...pushEndpointSettingIssues(parsed.data),
        ...redisSettingIssues(parsed.data),
      ]
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  if (parsed.success && issues.length === 0) return parsed.data;
  throw new ConfigError(`Invalid BFF configuration:\n${issues.map((line) => `  ${line}`).join('\n')}`);
}

/** The contents of a file a setting names; a missing or unreadable one is a configuration error. */
export function readConfiguredFile(name: keyof Config, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`Invalid BFF configuration:\n  ${name}: cannot read ${file} (${reason})`);
  }
}
