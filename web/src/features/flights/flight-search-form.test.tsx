// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FlightSearchForm } from './flight-search-form.tsx';
import type { FlightSearchForm as FlightSearchFormValue } from './flight-search-params.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const future = addDays(todayIsoDate(), 30);

function emptyReturn(): FlightSearchFormValue {
  return {
    tripType: 'return',
    legs: [
      { origin: null, destination: null, date: future },
      { origin: null, destination: null, date: addDays(future, 7) },
    ],
    adults: 1,
    cabinClass: 'economy',
  };
}

describe('FlightSearchForm', () => {
  it('on submit lists every problem, marks each field and moves focus to the first', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    const onSearch = vi.fn();
    renderApp(<FlightSearchForm initial={emptyReturn()} onSearch={onSearch} />);
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));

    const summary = screen.getByRole('alert');
    expect(within(summary).getByRole('heading')).toHaveTextContent('2 details need a fix');
    expect(within(summary).getByRole('link', { name: 'Flight 1 from' })).toBeInTheDocument();
    expect(within(summary).getByRole('link', { name: 'Flight 1 to' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveFocus();
    expect(screen.getByText('Choose where this flight leaves from.')).toBeInTheDocument();
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('shows a date problem inline as soon as the field is left', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    renderApp(<FlightSearchForm initial={emptyReturn()} onSearch={vi.fn()} />);
    const returnDate = screen.getByLabelText('Return date');
    await userEvent.clear(returnDate);
    await userEvent.type(returnDate, addDays(todayIsoDate(), -3));
    await userEvent.tab();
    expect(returnDate).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Choose a date that is not in the past.')).toBeInTheDocument();
  });

  it('picks an airport from the autocomplete and searches with it', async () => {
    stubFetch((url) => {
      const query = new URL(url, 'http://localhost').searchParams.get('query') ?? '';
      const airport = query.toLowerCase().startsWith('lon')
        ? { code: 'LHR', name: 'Heathrow', city: 'London', country: 'United Kingdom' }
        : { code: 'JFK', name: 'John F. Kennedy', city: 'New York', country: 'United States' };
      return {
        json: {
          items: [{ ...airport, countryCode: null, timeZone: 'Europe/London', latitude: 0, longitude: 0 }],
        },
      };
    });
    const onSearch = vi.fn();
    renderApp(
      <FlightSearchForm
        initial={{ ...emptyReturn(), tripType: 'one-way', legs: [emptyReturn().legs[0]!] }}
        onSearch={onSearch}
      />,
    );
    await userEvent.type(screen.getByRole('combobox', { name: 'From' }), 'Lon');
    await userEvent.click(await screen.findByRole('option', { name: /London/ }));
    await userEvent.type(screen.getByRole('combobox', { name: 'To' }), 'New');
    await userEvent.click(await screen.findByRole('option', { name: /New York/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
    const [submitted] = onSearch.mock.calls[0] as [FlightSearchFormValue];
    expect(submitted.legs.map((leg) => [leg.origin?.code, leg.destination?.code])).toEqual([['LHR', 'JFK']]);
  });

  it('adds and removes flights of a multi-city trip', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    renderApp(<FlightSearchForm initial={emptyReturn()} onSearch={vi.fn()} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Multi-city' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add another flight' }));
    expect(screen.getAllByRole('group', { name: /^Flight \d$/ })).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Remove flight 2' }));
    expect(screen.getAllByRole('group', { name: /^Flight \d$/ })).toHaveLength(2);
  });
});
