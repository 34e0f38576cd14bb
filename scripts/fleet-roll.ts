// `npm run fleet:roll`: restarts each BFF instance of a running `npm run start:fleet` in turn, the next
// only once the restarted one is ready and answers through the front (docs/scale-out.md, "Upgrading a
// fleet").
import { fleetControlPath, requestRoll } from './fleet-control.ts';
import { portSetting } from './service-group.ts';

if (process.argv.includes('--help')) {
  console.log(`usage: npm run fleet:roll
  Restarts each BFF instance of the fleet that npm run start:fleet runs, one at a time: the instance drains
  (out of the front's rotation, requests in flight finished, its browsers' streams and its notification
  leases handed to the others), exits, starts again with the code on disk, and the next one goes only
  once it answers /readyz with 200 on its own port and through the front. Exits 0 when every instance is
  back, 1 otherwise.
  WAYFARE_FLEET_PORT       port of the fleet's https front (default 8443)`);
  process.exit(0);
}

const frontPort = portSetting('WAYFARE_FLEET_PORT', 8443);
try {
  await requestRoll(fleetControlPath(frontPort), (line) => console.log(`[fleet:roll] ${line}`));
  console.log('[fleet:roll] every instance restarted and ready');
} catch (error) {
  console.error(`[fleet:roll] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
