import { beforeAll, describe, expect, it } from 'vitest';
import { BookingListSchema, BookingsPageSchema } from '#shared/upstream/bookings.ts';
import { addDays } from '../time-zones.ts';
import { envelopeOf } from '../test-support/envelope-of.ts';
import { signedFetch } from '../test-support/signed-fetch.ts';
import { travelApiWithIdentity } from '../test-support/travel-api-with-identity.ts';

const JORDAN = '5f1c2a7e-0b1d-4c5e-9a01-000000000003';
const stack = travelApiWithIdentity();
let token: string;
let alexToken: string;
const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number): string => addDays(today, days);

beforeAll(async () => {
  token = await stack.identity.token({ sub: JORDAN });
  alexToken = await stack.identity.token();
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

describe('bookings', () => {
  it('GET /v1/bookings returns the legacy plain array', async () => {
    const body = (await (
      await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token: alexToken })
    ).json()) as unknown;
    expect(Array.isArray(body)).toBe(true);
    const bookings = BookingListSchema.parse(body);
    const verticals = new Set(bookings.map((booking) => booking.vertical));
    expect(verticals.has('stay')).toBe(true);
    expect(verticals.has('flight') || verticals.has('rail')).toBe(true);
    expect(bookings.some((booking) => booking.status === 'confirmed')).toBe(true);
  });

  it('names every city of a booking in the languages the service knows: "London" is "Londres" in Spanish', async () => {
    const bookings = BookingListSchema.parse(
      await (await signedFetch(stack.api.baseUrl, { path: '/v1/bookings', token: alexToken })).json(),
    );
    const transport = bookings.filter((booking) => ['flight', 'rail'].includes(booking.vertical));
    expect(transport.length).toBeGreaterThan(0);
    for (const booking of transport) {
      expect(booking.route?.map((stop) => stop.city)).toEqual(booking.title.split(' → '));
    }
    const fromLondon = transport.find((booking) => booking.route?.[0]?.city === 'London');
    expect(fromLondon?.route?.[0]?.cityNames).toMatchObject({ en: 'London', es: 'Londres' });
    const stays = bookings.filter((item) => item.vertical === 'stay');
    for (const booking of stays) expect(booking.route).toBeUndefined();
    // A city the place names data does not know (Miami) keeps its one spelling in every language.
    const named = stays.filter((booking) => booking.location.cityNames);
    expect(named.length).toBeGreaterThan(0);
    for (const booking of named) expect(typeof booking.location.cityNames?.en).toBe('string');
  });

  it('pages the long history with limit and offset until nextOffset is null, with a stable totalCount', async () => {
    const jordan = await stack.identity.token({
      sub: JORDAN,
      email: 'jordan@wayfare.example',
      name: 'Jordan Lee',
    });
    const seen = new Set<string>();
    let offset: number | null = 0;
    let total = -1;
    while (offset !== null) {
      const page = BookingsPageSchema.parse(
        await (
          await signedFetch(stack.api.baseUrl, {
            path: `/v1/bookings/page?limit=50&offset=${offset}`,
            token: jordan,
          })
        ).json(),
      );
      if (total === -1) total = page.meta.totalCount;
      expect(page.meta.totalCount).toBe(total);
      expect(page.meta.pageSize).toBe(50);
      for (const item of page.items) seen.add(item.bookingId);
      offset = page.meta.nextOffset;
    }
    expect(total).toBeGreaterThanOrEqual(120);
    expect(seen.size).toBe(total);
  });

  it('filters by status, vertical and date bounds in both operations', async () => {
    const from = inDays(-30);
    const to = inDays(60);
    const query = `status=confirmed,pending&vertical=flight&from=${from}&to=${to}`;
    const list = BookingListSchema.parse(
      await (
        await signedFetch(stack.api.baseUrl, { path: `/v1/bookings?${query}`, token: alexToken })
      ).json(),
    );
    const page = BookingsPageSchema.parse(
      await (
        await signedFetch(stack.api.baseUrl, { path: `/v1/bookings/page?${query}`, token: alexToken })
      ).json(),
    );
    expect(page.meta.totalCount).toBe(list.length);
    for (const booking of list) {
      expect(['confirmed', 'pending']).toContain(booking.status);
      expect(booking.vertical).toBe('flight');
      expect(booking.startDate >= from && booking.startDate <= to).toBe(true);
    }
  });

  it('rejects a limit over the maximum, a bad status and inverted date bounds', async () => {
    const bad = async (query: string): Promise<string[]> =>
      (
        await envelopeOf(
          await signedFetch(stack.api.baseUrl, { path: `/v1/bookings/page?${query}`, token: alexToken }),
        )
      ).error.details.map((detail) => `${detail.field}:${detail.code}`);
    expect(await bad('limit=101')).toEqual(['limit:less_than_equal']);
    expect(await bad('status=lost')).toEqual(['status.0:enum']);
    expect(await bad('from=2026-05-01&to=2026-04-01')).toEqual(['to:greater_than_equal']);
  });
});
