import { z } from 'zod';

/** One Sentinel of a monitored Redis primary. */
export interface SentinelAddress {
  host: string;
  port: number;
}

/** `host:port,...` (an IPv6 address in brackets: `[::1]:26379`), the Sentinels of one primary. */
export const RedisSentinelsSchema = z.string().transform((value, context): SentinelAddress[] => {
  const sentinels: SentinelAddress[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[3]);
    if (match === null || port < 1 || port > 65535) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is not host:port (for example 10.0.1.7:26379, or [::1]:26379)`,
      });
      return z.NEVER;
    }
    sentinels.push({ host: match[1] ?? match[2] ?? '', port });
  }
  if (sentinels.length === 0) {
    context.addIssue({ code: 'custom', message: 'list at least one Sentinel as host:port' });
    return z.NEVER;
  }
  return sentinels;
});

/** The settings that say where the fleet's Redis is (bff/config.ts). */
export interface RedisSettings {
  REDIS_URL?: string | undefined;
  REDIS_SENTINELS?: SentinelAddress[] | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_USERNAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_USERNAME?: string | undefined;
  REDIS_PASSWORD?: string | undefined;
  REDIS_TLS: boolean;
}

/** A primary that the Sentinels name, with the credentials and TLS of the primary, replicas and Sentinels. */
export interface SentinelTarget {
  sentinels: SentinelAddress[];
  /** The name the Sentinels monitor the primary under (`sentinel monitor <name> ...`). */
  name: string;
  sentinelUsername?: string | undefined;
  sentinelPassword?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  /** TLS to the Sentinels and to the data nodes, verified against the system's and NODE_EXTRA_CA_CERTS's authorities. */
  tls: boolean;
}

/** Where the shared Redis is: one URL, or the Sentinels of a primary with replicas. */
export type RedisTarget = { url: string } | { sentinel: SentinelTarget };

const SENTINEL_ONLY = [
  'REDIS_SENTINEL_NAME',
  'REDIS_SENTINEL_USERNAME',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_USERNAME',
  'REDIS_PASSWORD',
] as const;

/** Settings of the shared Redis that only mean something together. */
export function redisSettingIssues(settings: RedisSettings): string[] {
  if (settings.REDIS_URL !== undefined && settings.REDIS_SENTINELS !== undefined) {
    return ['REDIS_URL, REDIS_SENTINELS: set one of them (a single Redis, or the Sentinels of a primary)'];
  }
  if (settings.REDIS_SENTINELS !== undefined) {
    return settings.REDIS_SENTINEL_NAME === undefined
      ? ['REDIS_SENTINEL_NAME: required with REDIS_SENTINELS (the name in `sentinel monitor <name> ...`)']
      : [];
  }
  const stray: string[] = SENTINEL_ONLY.filter((name) => settings[name] !== undefined);
  if (settings.REDIS_TLS) stray.push('REDIS_TLS');
  return stray.map((name) =>
    settings.REDIS_URL === undefined
      ? `${name}: only with REDIS_SENTINELS`
      : `${name}: only with REDIS_SENTINELS; with REDIS_URL, credentials are in the URL and rediss:// turns on TLS`,
  );
}

/** The configured Redis, or undefined when the BFF runs on its embedded stores. */
export function redisTargetOf(settings: RedisSettings): RedisTarget | undefined {
  if (settings.REDIS_URL !== undefined) return { url: settings.REDIS_URL };
  if (settings.REDIS_SENTINELS === undefined || settings.REDIS_SENTINEL_NAME === undefined) return undefined;
  return {
    sentinel: {
      sentinels: settings.REDIS_SENTINELS,
      name: settings.REDIS_SENTINEL_NAME,
      sentinelUsername: settings.REDIS_SENTINEL_USERNAME,
      sentinelPassword: settings.REDIS_SENTINEL_PASSWORD,
      username: settings.REDIS_USERNAME,
      password: settings.REDIS_PASSWORD,
      tls: settings.REDIS_TLS,
    },
  };
}
