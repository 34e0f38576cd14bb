// `npm run fleet:add` and `npm run fleet:remove -- bff-N`: one more or one fewer BFF instance in a running
// `npm run start:fleet`, the front's upstream list rewritten and nginx reloaded without dropping a request
// (docs/scale-out.md, "Adding or removing an instance").
import { fleetControlPath, requestFleet, type FleetRequest } from './fleet-control.ts';
import { portSetting } from './service-group.ts';

const USAGE = `usage: npm run fleet:add
       npm run fleet:remove -- <instance>     (an instance's name as the fleet prints it: bff-1, bff-2, ...)
  add: starts one more BFF instance, waits until it answers /readyz with 200 on its own port, then
  rewrites the front's upstream list with it, checks it (nginx -t) and reloads nginx (nginx -s reload).
  remove: rewrites the upstream list without the instance and reloads nginx, so that no new request goes
  to it, then stops it with SIGTERM: it drains (requests in flight finished, its browsers' streams and its
  notification leases handed to the others) and exits. The fleet's last instance is never removed.
  Each step is printed; exits 0 once done, 1 with the reason otherwise.
  WAYFARE_FLEET_PORT       port of the fleet's https front (default 8443)`;

const [kind, name, ...rest] = process.argv.slice(2);
if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
let request: FleetRequest;
if (kind === 'add' && name === undefined) request = { kind };
else if (kind === 'remove' && name !== undefined && /^bff-\d+$/.test(name) && rest.length === 0)
  request = { kind, name };
else {
  console.error(USAGE);
  process.exit(2);
}

const frontPort = portSetting('WAYFARE_FLEET_PORT', 8443);
const label = `[fleet:${request.kind}]`;
try {
  await requestFleet(fleetControlPath(frontPort), request, (line) => console.log(`${label} ${line}`));
  console.log(`${label} done`);
} catch (error) {
  console.error(`${label} ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
