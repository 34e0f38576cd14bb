// The Redis of `npm run start:fleet`, as docs/scale-out.md describes it for production ("Redis with
// Sentinel"): a primary, one replica and three Sentinels (quorum two), on loopback. The data nodes keep
// an append-only file (fsync every second), so a restarted node comes back with its sessions; their
// default user is off and each client has an ACL user of its own: the BFF instances (their keys and
// channels only), replication, and the Sentinels. The Sentinels ask for a password too. Every password
// is in a configuration file only its owner reads, never on a command line (where `ps` shows it) nor in
// any log line; the instances get theirs in their environment.
import { randomBytes } from 'node:crypto';

/** The name the Sentinels monitor the fleet's primary under (REDIS_SENTINEL_NAME). */
export const FLEET_PRIMARY_NAME = 'wayfare';

export interface FleetRedisPorts {
  primary: number;
  replica: number;
  sentinels: number[];
}

export interface FleetRedisOptions {
  /** How long the Sentinels wait for a primary that does not answer before they fail it over. */
  downAfterMs?: number;
  /** Passwords of the run (new random ones unless given). */
  passwords?: Partial<Record<'bff' | 'replication' | 'sentinelUser' | 'sentinels', string>>;
}

export interface FleetRedisFile {
  /** What it configures (`redis-primary`, `redis-replica`, `sentinel-1`, ...): its process and folder. */
  name: string;
  port: number;
  /** Sentinel (redis-sentinel) or a data node (redis-server). */
  sentinel: boolean;
  /** The text of its configuration file (write it with mode 0600 into `dir`; Sentinels rewrite theirs). */
  config: string;
  /**
   * The least wait before a supervisor restarts it. A data node waits out the failover window: a primary
   * back before the Sentinels promoted its replica would take writes that the promotion then discards;
   * later, it comes back as a replica of the new primary.
   */
  minRestartDelayMs: number;
}

export interface FleetRedis {
  files: FleetRedisFile[];
  /** The BFF instances' settings for it. */
  env: Record<string, string>;
  /** The Sentinels, as REDIS_SENTINELS lists them. */
  sentinels: string;
}

/** How long the fleet's Sentinels wait for a primary that does not answer before they fail it over. */
export const FLEET_DOWN_AFTER_MS = 2000;

/** The longest a failover takes: the Sentinels' wait, their election and the promotion, with a margin. */
export function failoverWindowMs(downAfterMs: number): number {
  return downAfterMs + 5000;
}

const password = () => randomBytes(24).toString('base64url');

export function fleetRedis(
  dataDir: (name: string) => string,
  ports: FleetRedisPorts,
  { downAfterMs = FLEET_DOWN_AFTER_MS, passwords = {} }: FleetRedisOptions = {},
): FleetRedis {
  const secret = {
    bff: passwords.bff ?? password(),
    replication: passwords.replication ?? password(),
    sentinelUser: passwords.sentinelUser ?? password(),
    sentinels: passwords.sentinels ?? password(),
  };
  const dataNode = (name: string, port: number, replicaOf?: number): FleetRedisFile => ({
    name,
    port,
    sentinel: false,
    minRestartDelayMs: failoverWindowMs(downAfterMs),
    config: lines([
      `port ${port}`,
      'bind 127.0.0.1',
      'protected-mode yes',
      `dir ${dataDir(name)}`,
      'appendonly yes',
      'appendfsync everysec',
      'save ""',
      'maxmemory-policy noeviction',
      'loglevel warning',
      'user default off',
      `user wayfare on >${secret.bff} ~wayfare:* ~wayfare-bff-rate-limit:* &wayfare:* +@all -@admin -@dangerous +info`,
      `user replication on >${secret.replication} +psync +replconf +ping`,
      `user sentinel on >${secret.sentinelUser} allchannels +multi +slaveof +replicaof +ping +exec +subscribe +config|rewrite +role +publish +info +client|setname +client|kill +script|kill`,
      // Both nodes: after a failover, the former primary comes back as a replica of the new one.
      'masteruser replication',
      `masterauth ${secret.replication}`,
      ...(replicaOf === undefined ? [] : [`replicaof 127.0.0.1 ${replicaOf}`]),
    ]),
  });
  const sentinels = ports.sentinels.map((port, index): FleetRedisFile => ({
    name: `sentinel-${index + 1}`,
    port,
    sentinel: true,
    minRestartDelayMs: 0,
    config: lines([
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dataDir(`sentinel-${index + 1}`)}`,
      'loglevel warning',
      `requirepass ${secret.sentinels}`,
      `sentinel sentinel-pass ${secret.sentinels}`,
      `sentinel monitor ${FLEET_PRIMARY_NAME} 127.0.0.1 ${ports.primary} 2`,
      `sentinel down-after-milliseconds ${FLEET_PRIMARY_NAME} ${downAfterMs}`,
      `sentinel failover-timeout ${FLEET_PRIMARY_NAME} ${Math.max(10_000, downAfterMs * 5)}`,
      `sentinel parallel-syncs ${FLEET_PRIMARY_NAME} 1`,
      `sentinel auth-user ${FLEET_PRIMARY_NAME} sentinel`,
      `sentinel auth-pass ${FLEET_PRIMARY_NAME} ${secret.sentinelUser}`,
    ]),
  }));
  const sentinelList = ports.sentinels.map((port) => `127.0.0.1:${port}`).join(',');
  return {
    files: [
      dataNode('redis-primary', ports.primary),
      dataNode('redis-replica', ports.replica, ports.primary),
      ...sentinels,
    ],
    sentinels: sentinelList,
    env: {
      REDIS_SENTINELS: sentinelList,
      REDIS_SENTINEL_NAME: FLEET_PRIMARY_NAME,
      REDIS_SENTINEL_PASSWORD: secret.sentinels,
      REDIS_USERNAME: 'wayfare',
      REDIS_PASSWORD: secret.bff,
    },
  };
}

function lines(entries: string[]): string {
  return `${entries.join('\n')}\n`;
}

/**
 * What to tell an operator whose host lets Redis's fork fail (Linux's `vm.overcommit_memory`, read from
 * /proc/sys/vm/overcommit_memory): Redis warns "Memory overcommit must be enabled!" at every start, and
 * with it off an append-only file rewrite or a replica's full sync (each a fork) can fail when memory is
 * short. Null when the setting is 1 (always overcommit), or unknown (not Linux).
 */
export function overcommitAdvice(setting: string | undefined): string | null {
  const value = setting?.trim();
  if (value === undefined || value === '' || value === '1') return null;
  return `[fleet] Redis warns that memory overcommit is off (vm.overcommit_memory=${value}): on this host its append-only file rewrite or a replica's full sync may fail when memory is short. A production host sets it to 1: sysctl vm.overcommit_memory=1 (see docs/scale-out.md).`;
}
