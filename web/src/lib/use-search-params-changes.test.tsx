// @vitest-environment jsdom
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useSearchParamsChanges, type SearchParamsChange } from './use-search-params-changes.ts';

afterEach(cleanup);

describe('useSearchParamsChanges', () => {
  it('keeps both of two changes asked before the first navigation ended', async () => {
    let change: ((build: SearchParamsChange) => void) | undefined;
    let search = '';
    function Filters() {
      const [, changeParams] = useSearchParamsChanges();
      change = changeParams;
      search = useLocation().search;
      return null;
    }
    const router = createMemoryRouter([{ path: '/bookings', element: <Filters /> }], {
      initialEntries: ['/bookings?when=all'],
    });
    render(<RouterProvider router={router} />);
    const set = (key: string, value: string) => (latest: URLSearchParams) => {
      const next = new URLSearchParams(latest);
      next.set(key, value);
      return next;
    };

    await act(() => {
      change?.(set('from', '2027-07-04'));
      change?.(set('to', '2027-07-06'));
      return Promise.resolve();
    });

    expect(new URLSearchParams(search).toString()).toBe('when=all&from=2027-07-04&to=2027-07-06');

    // Once the router shows them, the next change builds on what it shows.
    await act(() => {
      change?.(set('when', 'past'));
      return Promise.resolve();
    });
    expect(new URLSearchParams(search).toString()).toBe('when=past&from=2027-07-04&to=2027-07-06');
  });
});
