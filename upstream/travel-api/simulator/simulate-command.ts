// npm run simulate -- --traveler <sub|email> [--type SEGMENT_DELAYED] [--minutes 45] [--segment <id>]
// Creates one travel event through the admin API of a running travel API stand-in.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NOTIFICATION_EVENT_TYPES } from '#shared/upstream/notifications.ts';

const USAGE = `usage: npm run simulate -- --traveler <sub|email> [--type ${NOTIFICATION_EVENT_TYPES.join('|')}]
                         [--minutes <1..1440>] [--segment <segment id>] [--gate <gate>]
                         [--url <travel API origin>] (env TRAVEL_API_URL, default http://localhost:4010)
admin token from env TRAVEL_API_ADMIN_TOKEN (default: the one npm start uses in demo mode)
an https travel API signed by a local authority: NODE_EXTRA_CA_CERTS=<its ca.pem> (npm run start:fleet prints both)`;

const ResultSchema = z.looseObject({
  notification: z.looseObject({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    deliveryStatus: z.string(),
  }),
  segment: z.looseObject({
    segmentId: z.string(),
    tripId: z.string(),
    status: z.string(),
    estimatedDeparture: z.string(),
  }),
  deliveredLive: z.number(),
  pushed: z.boolean(),
});
const ErrorSchema = z.looseObject({ error: z.looseObject({ code: z.string(), message: z.string() }) });

/** Node's codes for a server certificate that no trusted authority vouches for. */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** The code of a fetch that failed on an untrusted certificate; undefined for any other failure. */
function untrustedCertificate(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && UNTRUSTED_CERTIFICATE.has(code) ? code : undefined;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        traveler: { type: 'string' },
        type: { type: 'string', default: 'SEGMENT_DELAYED' },
        minutes: { type: 'string' },
        segment: { type: 'string' },
        gate: { type: 'string' },
        url: { type: 'string', default: process.env.TRAVEL_API_URL ?? 'http://localhost:4010' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.traveler === undefined) {
    console.error(`--traveler is required\n${USAGE}`);
    return 2;
  }
  const token = process.env.TRAVEL_API_ADMIN_TOKEN ?? 'dev-admin-token-change-me-00001';
  const body = {
    traveler: values.traveler,
    type: values.type,
    ...(values.minutes === undefined ? {} : { minutes: Number(values.minutes) }),
    ...(values.segment === undefined ? {} : { segmentId: values.segment }),
    ...(values.gate === undefined ? {} : { gate: values.gate }),
  };
  let response: Response;
  try {
    response = await fetch(new URL('/admin/simulate', values.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const untrusted = untrustedCertificate(error);
    console.error(
      untrusted === undefined
        ? `Cannot reach the travel API at ${values.url}: ${error instanceof Error ? error.message : String(error)}`
        : `Cannot reach the travel API at ${values.url}: its certificate is not trusted here (${untrusted}). ` +
            'When a local authority signs it (npm run start:fleet prints its file), trust that file: ' +
            'NODE_EXTRA_CA_CERTS=<ca.pem> npm run simulate -- ...',
    );
    return 1;
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const failure = ErrorSchema.safeParse(payload);
    const details = failure.success
      ? `${failure.data.error.code}: ${failure.data.error.message}`
      : response.statusText;
    console.error(`Simulation refused (${response.status}) ${details}`);
    if (response.status === 404 && !failure.success)
      console.error('Is TRAVEL_API_ADMIN_TOKEN set on the server?');
    return 1;
  }
  const result = ResultSchema.parse(payload);
  console.log(`${result.notification.title}\n${result.notification.body}`);
  console.log(
    `notification ${result.notification.id} · live to ${result.deliveredLive} stream(s) · push ${
      result.pushed ? 'sent' : 'not sent'
    } · segment ${result.segment.segmentId} now ${result.segment.status}, departs ${result.segment.estimatedDeparture}`,
  );
  return 0;
}

process.exitCode = await main();
