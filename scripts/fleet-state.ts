// What a running `npm run start:fleet` tells the tools that act on it (a fault test, an operator's
// script): its ports, where nginx's configuration is and how to reload it, and how to reach Redis through
// the Sentinels. Written, when WAYFARE_FLEET_STATE_FILE names a file, once the fleet is ready, readable by
// its owner only (it holds the Redis passwords), and removed when the fleet stops.
import { readFile, writeFile } from 'node:fs/promises';

export interface FleetState {
  /** The fleet's temporary folder. */
  dataDir: string;
  frontPort: number;
  /** The BFF instances' loopback ports, bff-1 first. */
  bffPorts: number[];
  nginx: {
    /** The nginx program, its prefix folder and its configuration file (`nginx -p dir -c file -s reload`). */
    program: string;
    runDir: string;
    config: string;
  };
  redis: {
    /** The Sentinels' ports. */
    sentinelPorts: number[];
    /** The BFF instances' Redis settings (REDIS_SENTINELS, REDIS_SENTINEL_NAME, passwords). */
    env: Record<string, string>;
    /** The Sentinels' down-after-milliseconds. */
    downAfterMs: number;
  };
}

export async function writeFleetState(file: string, state: FleetState): Promise<void> {
  await writeFile(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export async function readFleetState(file: string): Promise<FleetState> {
  return JSON.parse(await readFile(file, 'utf8')) as FleetState;
}
