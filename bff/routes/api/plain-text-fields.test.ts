import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKING_BODY,
  BOOKING_TEXT_FIELDS,
  PROFILE_PATCH,
  PROFILE_TEXT_FIELDS,
  expectRefusedField,
  refusedInputs,
  withField,
} from '../../../upstream/travel-api/test-support/refused-text.ts';
import type { TestBrowser } from '../../test-support/sign-in-stack.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

describe('free text with control or bidi override characters, at the BFF', () => {
  let stack: GatewayStack;
  let alex: TestBrowser;

  beforeAll(async () => {
    stack = await startGatewayStack();
    alex = await stack.signIn();
  });

  afterAll(async () => {
    await stack.close();
  });

  async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    return alex.fetch(path, {
      method,
      headers: { 'x-requested-with': 'wayfare', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  /** The field is named in a 422 FIX_INPUT, and the request went no further than the BFF. */
  async function expectRefusedHere(response: Response, field: string, sent: string): Promise<void> {
    await expectRefusedField(response, field, sent);
    const requestId = response.headers.get('x-request-id');
    const upstream = stack.tap.seen.filter((seen) => seen.headers['x-request-id'] === requestId);
    expect(upstream, `${field}=${JSON.stringify(sent)}`).toEqual([]);
  }

  it('refuses a booking naming its traveler with one, naming the field', async () => {
    for (const { field, value } of refusedInputs(BOOKING_TEXT_FIELDS, 25)) {
      const response = await send('POST', '/api/bookings', withField(BOOKING_BODY, field, value), {
        'idempotency-key': `free-text-${randomUUID()}`,
      });
      await expectRefusedHere(response, field, value);
    }
  });

  it('refuses a profile change with one, naming the field', async () => {
    for (const { field, value } of refusedInputs(PROFILE_TEXT_FIELDS, 25)) {
      const response = await send('PATCH', '/api/profile', withField(PROFILE_PATCH, field, value));
      await expectRefusedHere(response, field, value);
    }
  });

  it('refuses one in a search text (airports, stay destinations)', async () => {
    for (const path of ['/api/flights/airports', '/api/stays/destinations']) {
      const response = await alex.fetch(`${path}?query=${encodeURIComponent('Lon\u202Edon')}`, {
        headers: { 'x-requested-with': 'wayfare' },
      });
      await expectRefusedHere(response, 'query', 'Lon\u202Edon');
    }
  });
});
