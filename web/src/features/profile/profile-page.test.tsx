// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../test-support/render-app.tsx';
import { sentJson, stubFetch } from '../../test-support/stub-fetch.ts';
import { ProfilePage } from './profile-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const profile = {
  travelerId: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  name: 'Alex Morgan',
  email: 'alex@wayfare.example',
  homeAirport: 'LHR',
  currency: 'GBP',
  locale: 'en-GB',
  bookingProfile: false,
  loyaltyPrograms: [],
  updatedAt: '2026-11-20T10:00:00.000Z',
};

/** The airport list names the profile's home airport; these tests need no name for it. */
const NO_AIRPORTS = { json: { items: [] } };
const isAirportSearch = (url: string) => url.startsWith('/api/flights/airports?');

describe('ProfilePage', () => {
  it('says "Profile saved." once the save succeeds, after the form shows the saved profile', async () => {
    let current = profile;
    stubFetch((url, init) => {
      if (isAirportSearch(url)) return NO_AIRPORTS;
      if (url === '/api/profile' && init.method === 'PATCH') {
        current = {
          ...current,
          ...(JSON.parse(init.body as string) as object),
          updatedAt: '2026-11-24T09:00:00.000Z',
        };
        return { json: current };
      }
      return { json: current };
    });
    renderApp(<ProfilePage />, { url: '/profile', path: '/profile' });
    const name = await screen.findByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Alex M. Morgan');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile saved.')).toBeInTheDocument();
    // Focus lands on the outcome, not on the page: the form remounted with the saved profile.
    expect(screen.getByText('Profile saved.')).toHaveFocus();
    expect(screen.getByLabelText('Name')).toHaveValue('Alex M. Morgan');
  });

  it('says "Profile saved." when the service answers the save with the version the form already shows', async () => {
    stubFetch((url) => (isAirportSearch(url) ? NO_AIRPORTS : { json: profile }));
    renderApp(<ProfilePage />, { url: '/profile', path: '/profile' });
    await screen.findByLabelText('Name');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile saved.')).toBeInTheDocument();
    expect(screen.getByText('Profile saved.')).toHaveFocus();
  });

  it('picks the home airport with the airport field of Flights, named by city and airport', async () => {
    const airports: Record<string, unknown> = {
      LHR: { code: 'LHR', name: 'Heathrow', city: 'London', country: 'United Kingdom', countryCode: 'GB' },
      JFK: {
        code: 'JFK',
        name: 'John F. Kennedy',
        city: 'New York',
        country: 'United States',
        countryCode: 'US',
      },
    };
    let current = profile;
    const fetchMock = stubFetch((url, init) => {
      const asked = new URL(url, 'http://localhost');
      const query = asked.pathname === '/api/flights/airports' ? asked.searchParams.get('query') : null;
      if (query !== null) {
        const airport = airports[query.toUpperCase()];
        const item = airport && { timeZone: 'UTC', latitude: 0, longitude: 0, ...airport };
        return { json: { items: item ? [item] : [] } };
      }
      if (url === '/api/profile' && init.method === 'PATCH') {
        current = { ...current, homeAirport: 'JFK', updatedAt: '2026-11-24T09:00:00.000Z' };
      }
      return { json: current };
    });
    renderApp(<ProfilePage />, { url: '/profile', path: '/profile' });
    const field = await screen.findByRole('combobox', { name: 'Home airport' });
    await waitFor(() => expect(field).toHaveValue('London · Heathrow (LHR)'));

    await userEvent.clear(field);
    await userEvent.type(field, 'JFK');
    await screen.findByRole('option', { name: /JFK/ });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(field).toHaveValue('New York · John F. Kennedy (JFK)'));
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('Profile saved.');
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(sentJson(patch?.[1])).toMatchObject({ homeAirport: 'JFK' });
  });

  it('offers only the languages the interface speaks, English and Spanish, with their regions', async () => {
    stubFetch(() => ({ json: profile }));
    renderApp(<ProfilePage />, { url: '/profile', path: '/profile' });
    const select = await screen.findByLabelText('Language and region');
    const options = [...(select as HTMLSelectElement).options].map((option) => option.value);
    expect(options).toEqual(['en-GB', 'en-US', 'es-ES']);
  });
});
