// Signs one request to the travel API with the consumer secret and sends it; prints status and body.
// Usage: npm run sign-and-send -- [METHOD] <path> [json-body]
//   env TRAVEL_API_URL (http://localhost:4010), CONSUMER_SLUG, CONSUMER_SECRET, ACCESS_TOKEN (optional bearer)
import { signedHeaders } from '#shared/upstream/sign-request.ts';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('usage: npm run sign-and-send -- [METHOD] /v1/path [json-body]');
  process.exit(0);
}
const method = args[0] && /^[A-Z]+$/.test(args[0]) ? (args.shift() ?? 'GET') : 'GET';
const path = args[0];
const body = args[1];
if (!path?.startsWith('/')) {
  console.error('Usage: npm run sign-and-send -- [METHOD] /v1/path [json-body]');
  process.exit(2);
}

const headers: Record<string, string> = {
  ...signedHeaders({
    consumer: process.env.CONSUMER_SLUG ?? 'wayfare-web',
    secret: process.env.CONSUMER_SECRET ?? 'dev-consumer-secret-change-me-0001',
    method,
    path,
    body,
  }),
  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  ...(process.env.ACCESS_TOKEN ? { authorization: `Bearer ${process.env.ACCESS_TOKEN}` } : {}),
};
const response = await fetch(`${process.env.TRAVEL_API_URL ?? 'http://localhost:4010'}${path}`, {
  method,
  headers,
  ...(body === undefined ? {} : { body }),
});
console.log(`HTTP ${response.status} ${response.headers.get('content-type') ?? ''}`);
console.log(await response.text());
