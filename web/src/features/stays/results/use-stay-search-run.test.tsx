// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { sse } from '../../../test-support/render-app.tsx';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';
import { PARIS, stayProperty, uuid } from '../../../test-support/stay-fixtures.ts';
import type { StaySearch } from '../search/stay-search-params.ts';
import type { StaySearchSnapshot } from './stay-search-run.ts';
import { forgetFinishedSearches, useStaySearchRun } from './use-stay-search-run.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  forgetFinishedSearches();
});

const checkIn = addDays(todayIsoDate(), 30);
const HOTELS = 30;

const search: StaySearch = {
  destination: PARIS,
  checkIn,
  checkOut: addDays(checkIn, 2),
  rooms: [{ adults: 1, childrenAges: [] }],
  bookingProfile: false,
};

/** The search's events, each in a read of its own, one task after another, as a busy stream sends them. */
function eventsOneTaskApart(events: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const left = [...events];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const next = left.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
}

describe('useStaySearchRun', () => {
  it('draws a stream of events together, not once each, and draws the last of them', async () => {
    const events = [
      ...Array.from({ length: HOTELS }, (_, index) => [
        sse('property', stayProperty(index + 1, `Hotel ${index + 1}`)),
        sse('property-end', { searchSolutionId: uuid(index + 1), outcome: 'no-rooms' }),
      ]).flat(),
      sse('search-end', { searchId: uuid(99), outcome: 'done' }),
      sse('done', { propertyCount: HOTELS, priced: 0, noRooms: HOTELS, failed: 0 }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(eventsOneTaskApart(events), { headers: { 'Content-Type': 'text/event-stream' } }),
        ),
      ),
    );
    const drawn: StaySearchSnapshot[] = [];
    const { result } = renderHook(() => {
      const state = useStaySearchRun(search, 'paris#1');
      if (drawn.at(-1) !== state.snapshot) drawn.push(state.snapshot);
      return state;
    });

    await waitFor(() => expect(result.current.snapshot.phase).toBe('complete'));
    expect(result.current.snapshot.properties).toHaveLength(HOTELS);
    expect(result.current.snapshot.pricedCount).toBe(HOTELS);
    // 62 events in 62 tasks: a few drawings, each of everything that had arrived.
    expect(drawn.length).toBeLessThan(events.length / 4);
  });
});
