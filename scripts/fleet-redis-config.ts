// The redis-server of `npm run start:fleet`: loopback only, nothing persisted, the default user off and
// one ACL user for the BFF instances, limited to their keys and channels, whose password they give in
// their REDIS_URL (docs/scale-out.md, "Authentication and TLS"). The password is in a configuration file
// only its owner reads, never on a command line (where `ps` shows it) nor in any log line.
import { randomBytes } from 'node:crypto';

export interface FleetRedis {
  /** The text of redis.conf (write it with mode 0600). */
  config: string;
  /** REDIS_URL of the instances: the password in its credentials. */
  url: string;
}

export function fleetRedis(port: number, password = randomBytes(24).toString('base64url')): FleetRedis {
  const config = [
    `port ${port}`,
    'bind 127.0.0.1',
    'protected-mode yes',
    'save ""',
    'appendonly no',
    'loglevel warning',
    'user default off',
    `user wayfare on >${password} ~wayfare:* ~wayfare-bff-rate-limit:* &wayfare:* +@all -@admin -@dangerous +info`,
    '',
  ].join('\n');
  return { config, url: `redis://wayfare:${encodeURIComponent(password)}@127.0.0.1:${port}` };
}
