// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StaySearchForm } from './stay-search-form.tsx';
import type { StaySearch } from './stay-search-params.ts';
import { renderApp } from '../../../test-support/render-app.tsx';
import { stubFetch } from '../../../test-support/stub-fetch.ts';
import { PARIS } from '../../../test-support/stay-fixtures.ts';
import { typeDate } from '../../../test-support/type-date.ts';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';
import {
  activateEnglishForTests,
  activateSpanishForTests,
} from '../../../test-support/languages-for-tests.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const checkIn = addDays(todayIsoDate(), 20);
const initial = {
  destination: null,
  checkIn,
  checkOut: addDays(checkIn, 2),
  rooms: [{ adults: 2, childrenAges: [] }],
  bookingProfile: false,
};

function stubDestinations() {
  return stubFetch(() => ({
    json: {
      items: [PARIS, { type: 'something-new', name: 'Ignored' }],
    },
  }));
}

describe('StaySearchForm', () => {
  it('on submit without a destination shows the summary and focuses the destination', async () => {
    stubDestinations();
    const onSearch = vi.fn();
    renderApp(<StaySearchForm initial={initial} onSearch={onSearch} />);
    await userEvent.click(screen.getByRole('button', { name: 'Search stays' }));
    const summary = screen.getByRole('alert');
    expect(within(summary).getByRole('link', { name: 'Destination' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Destination' })).toHaveFocus();
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('asks for destinations in the interface language, so a Spanish traveler finds "Lisboa"', async () => {
    const fetchMock = stubFetch((url) => {
      const asked = new URL(url, 'http://localhost').searchParams;
      const lisbon = {
        type: 'city',
        cityId: 'lisbon-pt',
        name: 'Lisboa',
        countryCode: 'PT',
        latitude: 38.7,
        longitude: -9.1,
      };
      return {
        json: { items: asked.get('locale') === 'es' && asked.get('query') === 'Lisboa' ? [lisbon] : [] },
      };
    });
    activateSpanishForTests();
    try {
      renderApp(<StaySearchForm initial={initial} onSearch={vi.fn()} />);
      await userEvent.type(screen.getByRole('combobox', { name: 'Destino' }), 'Lisboa');
      expect(await screen.findByRole('option', { name: /Lisboa/ })).toBeInTheDocument();
      expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
        '/api/stays/destinations?query=Lisboa&locale=es',
      );
    } finally {
      activateEnglishForTests();
    }
  });

  it('says the destination search did not answer when it failed, never that nothing matches', async () => {
    stubFetch(() => ({
      status: 500,
      json: {
        error: { code: 'INTERNAL', message: 'Something went wrong.', recoveryAction: 'CONTACT_SUPPORT' },
      },
    }));
    renderApp(<StaySearchForm initial={initial} onSearch={vi.fn()} />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Destination' }), 'Lisbon');
    expect(await screen.findByText('The search did not answer. Type again to retry.')).toBeInTheDocument();
  });

  it('refuses a check-out that is not after the check-in', async () => {
    stubDestinations();
    renderApp(<StaySearchForm initial={initial} onSearch={vi.fn()} />);
    const checkOut = screen.getByRole('group', { name: 'Check-out' });
    await typeDate(checkOut, checkIn);
    await userEvent.tab();
    await userEvent.tab();
    for (const segment of within(checkOut).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
    }
    expect(checkOut).toHaveAccessibleDescription(/Check-out must be after check-in\./);
  });

  it('edits occupancy room by room, with an age for every child, and searches with it', async () => {
    stubDestinations();
    const onSearch = vi.fn();
    renderApp(<StaySearchForm initial={initial} onSearch={onSearch} />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Destination' }), 'Par');
    await userEvent.click(await screen.findByRole('option', { name: /Paris/ }));

    await userEvent.click(screen.getByRole('button', { name: 'Add a room' }));
    const room2 = screen.getByRole('group', { name: 'Room 2' });
    await userEvent.selectOptions(within(room2).getByLabelText('Children'), '2');
    const ages = within(room2).getAllByLabelText(/Age of child/);
    expect(ages).toHaveLength(2);
    await userEvent.selectOptions(ages[1]!, '4');
    await userEvent.click(screen.getByRole('radio', { name: 'Personal' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search stays' }));

    expect(onSearch).toHaveBeenCalledTimes(1);
    const [search] = onSearch.mock.calls[0] as [StaySearch];
    expect(search.destination).toMatchObject({ type: 'city', cityId: 'paris-fr' });
    expect(search.rooms).toEqual([
      { adults: 2, childrenAges: [] },
      { adults: 1, childrenAges: [8, 4] },
    ]);
    expect(search.bookingProfile).toBe(true);
  });

  it('shows the server’s field problems at their fields', () => {
    stubDestinations();
    renderApp(
      <StaySearchForm
        initial={initial}
        onSearch={vi.fn()}
        serverErrors={{ checkIn: 'Choose a date that is not in the past.' }}
      />,
    );
    const checkInField = screen.getByRole('group', { name: 'Check-in' });
    for (const segment of within(checkInField).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
    }
    expect(checkInField).toHaveAccessibleDescription(/Choose a date that is not in the past\./);
  });
});
