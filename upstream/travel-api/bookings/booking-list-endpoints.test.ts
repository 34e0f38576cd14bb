import { beforeAll, describe, expect, it } from 'vitest';
import { BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const JORDAN = '5f1c2a7e-0b1d-4c5e-9a01-000000000003';
const stack = travelApiWithIdentity();
let token: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  token = await stack.identity.token({ sub: JORDAN });
});

async function page(query: string) {
  const response = await signedFetch(stack.api.baseUrl, {
    path: `/v1/bookings/page?limit=100${query}`,
    token,
  });
  expect(response.status).toBe(200);
  return BookingsPageSchema.parse(await response.json());
}

describe('GET /v1/bookings/page, additive filters', () => {
  it('lists upcoming travel (ending today or later) soonest first', async () => {
    const upcoming = await page(`&endFrom=${today}&sort=startDate`);
    expect(upcoming.items.length).toBeGreaterThan(0);
    for (const booking of upcoming.items) expect(booking.endDate >= today).toBe(true);
    const starts = upcoming.items.map((booking) => booking.startDate);
    expect(starts).toEqual([...starts].sort());
  });

  it('lists past travel (ended before today) latest first, and the two make the whole', async () => {
    const past = await page(`&endBefore=${today}`);
    for (const booking of past.items) expect(booking.endDate < today).toBe(true);
    const starts = past.items.map((booking) => booking.startDate);
    expect(starts).toEqual([...starts].sort().reverse());
    const upcoming = await page(`&endFrom=${today}`);
    const all = await page('');
    expect(past.meta.totalCount + upcoming.meta.totalCount).toBe(all.meta.totalCount);
  });

  it('keeps business or personal travel only', async () => {
    const business = await page('&travel=business');
    const personal = await page('&travel=personal');
    expect(business.items.every((booking) => !booking.bookingProfile)).toBe(true);
    expect(personal.items.every((booking) => booking.bookingProfile)).toBe(true);
    expect(business.meta.totalCount + personal.meta.totalCount).toBe((await page('')).meta.totalCount);
  });

  it('refuses an unknown kind of travel or order with the validation envelope', async () => {
    for (const query of ['&travel=leisure', '&sort=price']) {
      const response = await signedFetch(stack.api.baseUrl, {
        path: `/v1/bookings/page?limit=5${query}`,
        token,
      });
      expect(response.status, query).toBe(422);
    }
  });
});
