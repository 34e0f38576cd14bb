import type { Page } from '@playwright/test';
import { expect, setProfileLocale, test } from './fixtures.ts';
import { demoControlsInPlace } from './support/demo-controls.ts';
import { inboxCard } from './support/notifications.ts';
import type { AdminClient } from './support/admin-client.ts';
import { travelerState } from './support/shared-travelers.ts';
import type { TestTraveler } from './support/test-travelers.ts';

const headers = { 'x-requested-with': 'wayfare' };

/** A flight this short has others on its route that land the same evening. */
const SHORT_HAUL_MS = 6 * 3_600_000;
/**
 * Travelers tried before a journey gives up finding one with a trip to break. A generated traveler's
 * trips follow from their id and the day, and only some have such a trip; the ids a journey gets depend
 * on its worker, so eight was not always enough (none of one CI worker's eight had one). Each try is two
 * admin calls, no browser.
 */
const CANDIDATE_TRAVELERS = 60;

type Row = Record<string, unknown>;

/** The local calendar date of a UTC instant in a zone. */
const localDate = (instant: string, timeZone: string) =>
  new Date(instant).toLocaleDateString('en-CA', { timeZone });
const zoneOf = (place: unknown) => (JSON.parse(String(place)) as { timeZone: string }).timeZone;

/**
 * A trip of the traveler, as the travel API stand-in holds it, that starts with a short flight landing the
 * day it leaves, then its hotel that day: a delay into the night breaks that connection, and a flight the
 * same day can still keep it.
 */
function tripToBreak(tables: Record<string, Row[]>) {
  const today = new Date().toISOString().slice(0, 10);
  const segments = tables['segments'] ?? [];
  for (const trip of tables['trips'] ?? []) {
    if (String(trip['start_date']) <= today) continue;
    const own = segments
      .filter((segment) => segment['trip_id'] === trip['trip_id'])
      .sort((a, b) => String(a['scheduled_departure']).localeCompare(String(b['scheduled_departure'])));
    if (own.some((segment) => segment['status'] !== 'SCHEDULED')) continue;
    const [flight, stay] = own;
    if (flight?.['kind'] !== 'flight' || stay?.['kind'] !== 'stay') continue;
    const departure = String(flight['scheduled_departure']);
    const arrival = String(flight['scheduled_arrival']);
    const day = localDate(departure, zoneOf(flight['origin']));
    if (
      localDate(arrival, zoneOf(flight['destination'])) === day &&
      localDate(String(stay['scheduled_departure']), zoneOf(stay['origin'])) === day &&
      Date.parse(arrival) - Date.parse(departure) <= SHORT_HAUL_MS
    ) {
      return {
        tripId: String(trip['trip_id']),
        flight: {
          segmentId: String(flight['segment_id']),
          bookingReference: String(flight['booking_reference']),
        },
        stay: { title: String(stay['title']) },
      };
    }
  }
  return undefined;
}

/** A fresh traveler with a trip to break (looked up in the stand-in, not by signing in), signed in. */
async function signInWithTripToBreak(
  page: Page,
  signIn: (options: { traveler: TestTraveler; returnTo: string }) => Promise<void>,
  travelers: () => Promise<TestTraveler>,
  admin: AdminClient,
) {
  for (let tried = 0; tried < CANDIDATE_TRAVELERS; tried++) {
    const traveler = await travelers();
    const target = tripToBreak((await travelerState(admin, traveler)).tables);
    if (!target) continue;
    await signIn({ traveler, returnTo: '/trips' });
    return target;
  }
  throw new Error(`None of ${CANDIDATE_TRAVELERS} travelers has a trip that starts with a same-day flight`);
}

/**
 * Breaks the trip's connection with the demo's lever (on that flight), opens the trip in two tabs, and
 * chooses the best other flight: the first listed, marked as keeping the trip. Ends on the review.
 */
async function breakAndChoose(...signingIn: Parameters<typeof signInWithTripToBreak>) {
  const [page] = signingIn;
  const target = await signInWithTripToBreak(...signingIn);
  const lever = await page.request.post('/api/demo/segment-delay', {
    headers,
    data: { breaksConnection: true, segmentId: target.flight.segmentId },
  });
  expect(lever.status()).toBe(200);

  const other = await page.context().newPage();
  for (const tab of [page, other]) await tab.goto(`/trips/${target.tripId}`);
  const timeline = page.getByRole('list', { name: 'Trip timeline' });
  const atRisk = timeline.getByRole('listitem', { name: target.stay.title }).first();
  await expect(atRisk.getByRole('note')).toContainText('At risk:');
  await expect(other.getByRole('list', { name: 'Trip timeline' }).getByRole('note')).toHaveCount(1);

  await atRisk.getByRole('button', { name: 'See other flights' }).click();
  const list = atRisk.getByRole('region', { name: /^Other flights from / });
  const best = list.getByRole('listitem').first();
  await expect(best).toContainText('Keeps your trip');
  await expect(best).toContainText(/your booking/);
  const flightName = (await best.getAttribute('aria-label')) ?? '';
  await best.getByRole('button', { name: `Choose ${flightName}` }).click();

  const review = atRisk.getByRole('region', { name: `Change to ${flightName}?` });
  await expect(review).toContainText(`Booking ${target.flight.bookingReference}`);
  await expect(review).toContainText('Cancelled, with a refund of');
  await expect(review.getByRole('button', { name: 'Confirm the change' })).toBeEnabled();
  return { target, other, timeline, review, flightName };
}

/** The trip as every tab shows it after the change: the old flight cancelled, the new one there, no risk. */
async function expectChanged(
  tabs: Page[],
  target: { flight: { bookingReference: string } },
  flightName: string,
) {
  for (const tab of tabs) {
    const timeline = tab.getByRole('list', { name: 'Trip timeline' });
    await expect(timeline.getByRole('note')).toHaveCount(0);
    await expect(
      timeline.getByRole('listitem').filter({ hasText: target.flight.bookingReference }).first(),
    ).toContainText('Cancelled');
    await expect(
      timeline.getByRole('listitem').filter({ hasText: flightName.split(' · ')[0]! }),
    ).not.toHaveCount(0);
  }
}

test('a trip at risk draws without the other flights’ code, which comes when the traveler opens them', async ({
  page,
  signIn,
  newTraveler,
  admin,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const listCode = () => scripts.filter((script) => /other-flights-list/.test(script));
  const target = await signInWithTripToBreak(page, signIn, newTraveler, admin);
  const lever = await page.request.post('/api/demo/segment-delay', {
    headers,
    data: { breaksConnection: true, segmentId: target.flight.segmentId },
  });
  expect(lever.status()).toBe(200);

  // The pointer away from where the button will draw: pointing at it fetches the list's code.
  await page.mouse.move(0, 0);
  await page.goto(`/trips/${target.tripId}`);
  const timeline = page.getByRole('list', { name: 'Trip timeline' });
  const atRisk = timeline.getByRole('listitem', { name: target.stay.title }).first();
  await expect(atRisk.getByRole('note')).toContainText('At risk:');
  const seeOtherFlights = atRisk.getByRole('button', { name: 'See other flights' });
  await expect(seeOtherFlights).toBeVisible();
  expect(listCode()).toEqual([]);

  await seeOtherFlights.click();
  await expect(atRisk.getByRole('region', { name: /^Other flights from / })).toBeVisible();
  expect(listCode()).toHaveLength(1);
});

test('a broken connection is fixed in one step: another flight that keeps the trip, the old booking refunded, in every tab', async ({
  page,
  signIn,
  newTraveler,
  admin,
}) => {
  const { target, other, review, flightName } = await breakAndChoose(page, signIn, newTraveler, admin);
  await review.getByRole('button', { name: 'Confirm the change' }).click();

  const status = page.getByRole('status').filter({ hasText: 'Your flight is changed to' });
  await expect(status).toContainText(
    `Booking ${target.flight.bookingReference} is cancelled, with a refund of`,
  );
  await expectChanged([page, other], target, flightName);

  await page.goto('/inbox');
  await expect(inboxCard(page, 'Booking changed:')).toHaveCount(1);
  await expect(inboxCard(page, 'Booking confirmed:')).toHaveCount(0);
  await expect(inboxCard(page, 'Booking cancelled:')).toHaveCount(0);
});

test('a cancel that fails once leaves both bookings, said in words, until its retry cancels the old one', async ({
  page,
  signIn,
  newTraveler,
  admin,
}) => {
  const { target, other, review, flightName } = await breakAndChoose(page, signIn, newTraveler, admin);
  expect((await page.request.post('/api/demo/cancel-failure', { headers })).status()).toBe(200);
  await review.getByRole('button', { name: 'Confirm the change' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'for now you hold both' })).toContainText(
    `booking ${target.flight.bookingReference} is not cancelled yet`,
  );
  const done = page.getByRole('status').filter({ hasText: 'Your flight is changed to' });
  await expect(done).toContainText(
    `Booking ${target.flight.bookingReference} is cancelled, with a refund of`,
    {
      timeout: 15_000,
    },
  );
  await expectChanged([page, other], target, flightName);
});

/** Words of the rebooking as a Spanish (es-ES) traveler reads them. */
const ES = {
  timeline: 'Itinerario del viaje',
  atRisk: 'En riesgo:',
  otherFlights: /^Otros vuelos de /,
  keepsTrip: 'Mantiene tu viaje',
  choose: (flight: string) => `Elegir ${flight}`,
  review: (flight: string) => `¿Cambiar a ${flight}?`,
  confirm: 'Confirmar el cambio',
  declined: 'Pago rechazado: elige otra tarjeta',
  cards: 'Tarjeta con la que pagar',
  priceMoved: 'El precio ha cambiado mientras confirmabas',
  wasPrice: 'El precio ha cambiado: era',
  untouched: (reference: string) => `No se ha reservado nada y la reserva ${reference} sigue como estaba.`,
  changed: 'Tu vuelo ha cambiado a',
  refunded: (reference: string) => `La reserva ${reference} está cancelada, con un reembolso de`,
  cancelled: 'Cancelado',
};

test.describe('rebooking on a phone, in Spanish', () => {
  // The phone project's device, for this one journey: it runs once, not once per project.
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });

  test('a declined card and a price changed while confirming are told in Spanish, book nothing, and the trip is fixed after', async ({
    page,
    signIn,
    newTraveler,
    admin,
  }) => {
    const target = await signInWithTripToBreak(page, signIn, newTraveler, admin);
    expect(await setProfileLocale(page, 'es-ES')).toBe(true);
    const lever = await page.request.post('/api/demo/segment-delay', {
      headers,
      data: { breaksConnection: true, segmentId: target.flight.segmentId },
    });
    expect(lever.status()).toBe(200);

    // Where the delay's toast leads: the broken flight's page, its other flights open already.
    await page.goto(`/trips/${target.tripId}/segment/${target.flight.segmentId}`);
    await demoControlsInPlace(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    const timeline = page.getByRole('list', { name: ES.timeline });
    const atRisk = timeline.getByRole('listitem', { name: target.stay.title }).first();
    await expect(atRisk.getByRole('note')).toContainText(ES.atRisk);
    const best = atRisk.getByRole('region', { name: ES.otherFlights }).getByRole('listitem').first();
    await expect(best).toContainText(ES.keepsTrip);
    const flightName = (await best.getAttribute('aria-label')) ?? '';
    await best.getByRole('button', { name: ES.choose(flightName) }).click();
    const review = atRisk.getByRole('region', { name: ES.review(flightName) });
    const confirm = review.getByRole('button', { name: ES.confirm });
    await expect(confirm).toBeEnabled();

    // The card is declined: said in words, with the focus; nothing booked, the old booking as it was.
    expect((await page.request.post('/api/demo/payment-decline', { headers })).status()).toBe(200);
    await confirm.click();
    const declined = review.getByRole('alert').filter({ hasText: ES.declined });
    await expect(declined).toBeFocused();
    await expect(declined).toContainText(ES.untouched(target.flight.bookingReference));
    await expect(review.getByRole('radiogroup', { name: ES.cards }).getByRole('radio')).toHaveCount(1);
    await expect(atRisk.getByRole('note')).toContainText(ES.atRisk);

    // With the other card, the price has changed in the meantime: the new price, confirmed again.
    expect((await page.request.post('/api/demo/price-change', { headers })).status()).toBe(200);
    await confirm.click();
    const moved = review.getByRole('alert').filter({ hasText: ES.priceMoved });
    await expect(moved).toBeFocused();
    await expect(moved).toContainText(ES.untouched(target.flight.bookingReference));
    await expect(review).toContainText(ES.wasPrice);
    await confirm.click();

    await expect(page.getByRole('status').filter({ hasText: ES.changed })).toContainText(
      ES.refunded(target.flight.bookingReference),
    );
    await expect(timeline.getByRole('note')).toHaveCount(0);
    await expect(
      timeline.getByRole('listitem').filter({ hasText: target.flight.bookingReference }).first(),
    ).toContainText(ES.cancelled);
    // One notification records the change, written in Spanish from its facts.
    await page.goto('/inbox');
    const changed = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { level: 3, name: /Reserva cambiada: / }) });
    await expect(changed).toHaveCount(1);
    await expect(changed).toContainText(
      `Sustituye a la reserva ${target.flight.bookingReference}, ya cancelada.`,
    );
  });
});
