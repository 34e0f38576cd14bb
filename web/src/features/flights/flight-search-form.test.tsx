// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FlightSearchForm } from './flight-search-form.tsx';
import type { FlightSearchForm as FlightSearchFormValue } from './flight-search-params.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { typeDate } from '../../test-support/type-date.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';

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

/** The form for a one-way flight, nothing chosen yet. */
function renderOneWay(onSearch: (form: FlightSearchFormValue) => void = vi.fn()) {
  return renderApp(
    <FlightSearchForm
      initial={{ ...emptyReturn(), tripType: 'one-way', legs: [emptyReturn().legs[0]!] }}
      onSearch={onSearch}
    />,
  );
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
    const returnDate = screen.getByRole('group', { name: 'Return date' });
    await typeDate(returnDate, addDays(todayIsoDate(), -3));
    await userEvent.tab();
    await userEvent.tab();
    for (const segment of within(returnDate).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
    }
    expect(returnDate).toHaveAccessibleDescription(/Choose a date that is not in the past\./);
  });

  it('searches with the dates typed in the date fields', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    const onSearch = vi.fn();
    const outbound = addDays(todayIsoDate(), 40);
    const back = addDays(todayIsoDate(), 47);
    renderApp(
      <FlightSearchForm
        initial={{
          ...emptyReturn(),
          legs: emptyReturn().legs.map((leg, index) => ({
            ...leg,
            origin: index === 0 ? { code: 'LHR', label: 'LHR' } : { code: 'JFK', label: 'JFK' },
            destination: index === 0 ? { code: 'JFK', label: 'JFK' } : { code: 'LHR', label: 'LHR' },
          })),
        }}
        onSearch={onSearch}
      />,
    );
    await typeDate(screen.getByRole('group', { name: 'Date' }), outbound);
    await typeDate(screen.getByRole('group', { name: 'Return date' }), back);
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
    const [submitted] = onSearch.mock.calls[0] as [FlightSearchFormValue];
    expect(submitted.legs.map((leg) => leg.date)).toEqual([outbound, back]);
  });

  it('links a date problem in the summary to the date field', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    renderApp(<FlightSearchForm initial={emptyReturn()} onSearch={vi.fn()} serverErrors={{}} />);
    const date = screen.getByRole('group', { name: 'Date' });
    await typeDate(date, addDays(todayIsoDate(), 500));
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    await userEvent.click(within(screen.getByRole('alert')).getByRole('link', { name: 'Flight 1 date' }));
    expect(within(date).getAllByRole('spinbutton')[0]).toHaveFocus();
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
    renderOneWay(onSearch);
    await userEvent.type(screen.getByRole('combobox', { name: 'From' }), 'Lon');
    await userEvent.click(await screen.findByRole('option', { name: /London/ }));
    await userEvent.type(screen.getByRole('combobox', { name: 'To' }), 'New');
    await userEvent.click(await screen.findByRole('option', { name: /New York/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
    const [submitted] = onSearch.mock.calls[0] as [FlightSearchFormValue];
    expect(submitted.legs.map((leg) => [leg.origin?.code, leg.destination?.code])).toEqual([['LHR', 'JFK']]);
  });

  it('says the airport field is busy while what was typed waits for its search, even with earlier options shown', async () => {
    stubFetch(() => ({
      json: {
        items: [
          {
            code: 'LHR',
            name: 'Heathrow',
            city: 'London',
            country: 'United Kingdom',
            countryCode: null,
            timeZone: 'Europe/London',
            latitude: 0,
            longitude: 0,
          },
        ],
      },
    }));
    renderOneWay();
    const from = screen.getByRole('combobox', { name: 'From' });
    await userEvent.type(from, 'Lo');
    await screen.findByRole('option', { name: /London/ });
    await waitFor(() => expect(from).not.toHaveAttribute('aria-busy'));
    await userEvent.type(from, 'n');
    expect(screen.getByRole('option', { name: /London/ })).toBeInTheDocument();
    expect(from).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(from).not.toHaveAttribute('aria-busy'));
  });

  it('a code typed and entered, or left, before its search answered is chosen once it answers', async () => {
    const airports = {
      LHR: { code: 'LHR', name: 'Heathrow', city: 'London', country: 'United Kingdom' },
      JFK: { code: 'JFK', name: 'John F. Kennedy', city: 'New York', country: 'United States' },
    };
    const answers = Promise.withResolvers<void>();
    stubFetch(async (url) => {
      await answers.promise;
      const query = new URL(url, 'http://localhost').searchParams.get('query')?.toUpperCase() ?? '';
      const found = Object.values(airports).filter((airport) => airport.code.startsWith(query));
      return {
        json: {
          items: found.map((airport) => ({
            ...airport,
            countryCode: null,
            timeZone: 'UTC',
            latitude: 0,
            longitude: 0,
          })),
        },
      };
    });
    const onSearch = vi.fn();
    renderOneWay(onSearch);
    const from = screen.getByRole('combobox', { name: 'From' });
    const to = screen.getByRole('combobox', { name: 'To' });
    await userEvent.type(from, 'LHR{Enter}');
    expect(from).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.type(to, 'JFK');
    await userEvent.tab();

    answers.resolve();
    await waitFor(() => expect(from).toHaveValue('London · Heathrow (LHR)'));
    await waitFor(() => expect(to).toHaveValue('New York · John F. Kennedy (JFK)'));
    await userEvent.click(screen.getByRole('button', { name: 'Search flights' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
    const [submitted] = onSearch.mock.calls[0] as [FlightSearchFormValue];
    expect(submitted.legs.map((leg) => [leg.origin?.code, leg.destination?.code])).toEqual([['LHR', 'JFK']]);
  });

  it('asks for airports in the interface language, so a Spanish traveler finds "Londres"', async () => {
    const fetchMock = stubFetch((url) => {
      const asked = new URL(url, 'http://localhost').searchParams;
      const spanish = asked.get('locale') === 'es' && asked.get('query') === 'Londres';
      const london = { code: 'LHR', name: 'Heathrow', city: 'Londres', country: 'Reino Unido' };
      const item = {
        ...london,
        countryCode: 'GB',
        timeZone: 'Europe/London',
        latitude: 51.47,
        longitude: -0.46,
      };
      return { json: { items: spanish ? [item] : [] } };
    });
    activateSpanishForTests();
    try {
      renderOneWay();
      await userEvent.type(screen.getByRole('combobox', { name: 'Origen' }), 'Londres');
      const option = await screen.findByRole('option', { name: /Londres/ });
      expect(option).toHaveTextContent('Londres LHR');
      expect(option).toHaveTextContent('Reino Unido');
      expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
        '/api/flights/airports?query=Londres&locale=es',
      );
    } finally {
      activateEnglishForTests();
    }
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

  it('speaks Spanish: its labels, dates written day/month/year and its problems', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    activateSpanishForTests();
    try {
      const onSearch = vi.fn();
      renderApp(<FlightSearchForm initial={emptyReturn()} onSearch={onSearch} />);
      const form = screen.getByRole('form', { name: 'Buscar vuelos' });
      expect(within(form).getByRole('radio', { name: 'Ida y vuelta' })).toBeChecked();
      expect(within(form).getByRole('group', { name: 'Ida' })).toBeInTheDocument();
      const date = within(form).getByRole('group', { name: 'Fecha' });
      expect(
        within(date)
          .getAllByRole('spinbutton')
          .map((segment) => segment.dataset.type),
      ).toEqual(['day', 'month', 'year']);
      const [year, month, day] = future.split('-');
      expect(date).toHaveTextContent(`${day}/${month}/${year}`);
      expect(within(form).getByRole('group', { name: 'Fecha de vuelta' })).toBeInTheDocument();
      expect(within(form).getByRole('combobox', { name: 'Clase' })).toHaveDisplayValue('Turista');

      await userEvent.click(within(form).getByRole('button', { name: 'Buscar vuelos' }));
      const summary = screen.getByRole('alert');
      expect(within(summary).getByRole('heading')).toHaveTextContent('Hay 2 datos que corregir');
      expect(within(summary).getByRole('link', { name: 'Origen del vuelo 1' })).toBeInTheDocument();
      expect(within(summary).getByRole('link', { name: 'Destino del vuelo 1' })).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Origen' })).toHaveFocus();
      expect(screen.getByText('Elige desde dónde sale este vuelo.')).toBeInTheDocument();
      expect(onSearch).not.toHaveBeenCalled();
    } finally {
      activateEnglishForTests();
    }
  });
});
