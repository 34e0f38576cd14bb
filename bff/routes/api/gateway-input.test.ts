import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

const ROUTES = [
  { method: 'POST', path: '/api/flights/search' },
  { method: 'PATCH', path: '/api/profile' },
  { method: 'GET', path: '/api/bookings' },
  { method: 'GET', path: '/api/flights/airports' },
  { method: 'GET', path: '/api/stays/destinations' },
  { method: 'GET', path: '/api/notifications' },
  { method: 'GET', path: '/api/app/update-check' },
  { method: 'POST', path: '/api/notifications/%s/read' },
  { method: 'GET', path: '/api/trips/%s/segments/%s' },
] as const;

const anyJson = fc.jsonValue({ maxDepth: 3 });
const text = fc.string({ maxLength: 40, unit: 'binary' });

describe('bad input at the BFF edge', () => {
  let stack: GatewayStack;
  let traveler: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack({ bffEnv: { RATE_LIMIT_SEARCH_PER_MINUTE: '1000' } });
    traveler = await stack.signIn('traveler1@wayfare.test', 'test-pass');
  });

  afterAll(async () => {
    await stack.close();
  });

  it('never crashes, never answers 5xx of its own, and answers every error with the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(text, fc.array(text, { maxLength: 3 })), {
          maxKeys: 4,
        }),
        fc.oneof(anyJson, text),
        fc.tuple(text, text),
        async (route, query, body, [first, second]) => {
          const params = new URLSearchParams();
          for (const [key, value] of Object.entries(query)) {
            for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
          }
          const path = route.path
            .replace('%s', encodeURIComponent(first))
            .replace('%s', encodeURIComponent(second));
          const response = await traveler.fetch(`${path}?${params.toString()}`, {
            method: route.method,
            headers: { 'x-requested-with': 'wayfare', 'content-type': 'application/json' },
            body: route.method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          });
          const answer = await response.text();
          expect(response.status, `${route.method} ${path} -> ${answer}`).toBeLessThan(500);
          if (response.status >= 400) {
            expect(ErrorEnvelopeSchema.safeParse(JSON.parse(answer)).success).toBe(true);
            expect(answer).not.toMatch(/\bat \S+ \(|node_modules|Error:/);
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});
