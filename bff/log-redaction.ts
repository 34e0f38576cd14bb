import type { FastifyServerOptions } from 'fastify';
import { traceLogFields } from '#shared/observability/telemetry.ts';

const SENSITIVE_KEYS = [
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  '["set-cookie"]',
  '["Set-Cookie"]',
  '["service-signature"]',
  '["Service-Signature"]',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'guestToken',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'clientSecret',
  'consumerSecret',
  'password',
];

function under(prefix: string, key: string): string {
  return key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
}

/** Sensitive keys at the top of a log object, one level down, and inside any `headers` object. */
export const REDACTED_LOG_PATHS: readonly string[] = SENSITIVE_KEYS.flatMap((key) => [
  key.startsWith('[') ? key.slice(2, -2) : key,
  under('*', key),
  under('headers', key),
  under('*.headers', key),
  under('req.headers', key),
  under('res.headers', key),
]);

type LoggerSetting = FastifyServerOptions['logger'];

/**
 * Fastify logger options with redaction of tokens, cookies, signatures and secrets added, and the ids of
 * the active trace on every line, whatever options the caller (server.ts, or a test capturing the output)
 * chose.
 */
export function withLogRedaction(setting: LoggerSetting, level: string): LoggerSetting {
  if (setting === false) return false;
  const base = typeof setting === 'object' && setting !== null ? setting : { level };
  return {
    ...base,
    redact: { paths: [...REDACTED_LOG_PATHS], censor: '[redacted]' },
    mixin: traceLogFields,
  };
}
