// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AirportField } from './airport-field.tsx';
import type { AirportChoice } from './flight-search-params.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch, type StubbedResponse } from '../../test-support/stub-fetch.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Field({
  initial = null,
  onChange,
}: {
  initial?: AirportChoice | null;
  onChange?: (value: AirportChoice | null) => void;
}) {
  const [value, setValue] = useState<AirportChoice | null>(initial);
  return (
    <AirportField
      id="origin"
      label="From"
      value={value}
      onChange={(next) => {
        onChange?.(next);
        setValue(next);
      }}
    />
  );
}

const bangkok = {
  code: 'BKK',
  name: 'Suvarnabhumi',
  city: 'Bangkok',
  country: 'Thailand',
  countryCode: 'TH',
  timeZone: 'Asia/Bangkok',
  latitude: 13.69,
  longitude: 100.75,
};

/** The airport list answers a search for BKK when the test says, and every other search at once, with none. */
function nameBangkokWhenAsked() {
  let answer: () => void = () => undefined;
  const fetchMock = stubFetch((url) => {
    const query = new URL(url, 'http://localhost').searchParams.get('query');
    if (query !== 'BKK') return { json: { items: [] } };
    return new Promise<StubbedResponse>(
      (resolve) => (answer = () => resolve({ json: { items: [bangkok] } })),
    );
  });
  return { fetchMock, answer: () => answer() };
}

describe('AirportField', () => {
  it('says the search did not answer when it failed, never that no airport matches', async () => {
    stubFetch(() => ({
      status: 500,
      json: {
        error: { code: 'INTERNAL', message: 'Something went wrong.', recoveryAction: 'CONTACT_SUPPORT' },
      },
    }));
    renderApp(<Field />);
    await userEvent.type(screen.getByRole('combobox', { name: 'From' }), 'Londres');
    expect(await screen.findByText('The search did not answer. Type again to retry.')).toBeInTheDocument();
    expect(screen.queryByText('No airport matches.')).toBeNull();
  });

  it('says no airport matches when the search answered with none', async () => {
    stubFetch(() => ({ json: { items: [] } }));
    renderApp(<Field />);
    await userEvent.type(screen.getByRole('combobox', { name: 'From' }), 'Zzxq');
    expect(await screen.findByText('No airport matches.')).toBeInTheDocument();
  });

  it('names an airport chosen by its code, and never brings it back once the traveler typed over it', async () => {
    const { answer } = nameBangkokWhenAsked();
    const changes: (AirportChoice | null)[] = [];
    renderApp(<Field initial={{ code: 'BKK', label: 'BKK' }} onChange={(value) => changes.push(value)} />);
    const field = screen.getByRole('combobox', { name: 'From' });
    expect(field).toHaveValue('BKK');
    answer();
    await waitFor(() => expect(field).toHaveValue('Bangkok · Suvarnabhumi (BKK)'));
    // The name is the field's to show: the choice stays the code it was given.
    expect(changes).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, 'Londres');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(field).toHaveValue('Londres');
    expect(changes).toEqual([null]);
  });

  it('keeps showing the code while the traveler is in the field, and names it once they leave', async () => {
    const { answer } = nameBangkokWhenAsked();
    renderApp(<Field initial={{ code: 'BKK', label: 'BKK' }} />);
    const field = screen.getByRole('combobox', { name: 'From' });
    await userEvent.click(field);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Text changed under the cursor would open the suggestions on its own.
    expect(field).toHaveValue('BKK');
    expect(screen.queryByRole('listbox')).toBeNull();

    await userEvent.tab();
    await waitFor(() => expect(field).toHaveValue('Bangkok · Suvarnabhumi (BKK)'));
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('lists the airport named from its code by its name when the traveler opens the list', async () => {
    const { answer } = nameBangkokWhenAsked();
    renderApp(<Field initial={{ code: 'BKK', label: 'BKK' }} />);
    answer();
    const field = screen.getByRole('combobox', { name: 'From' });
    await waitFor(() => expect(field).toHaveValue('Bangkok · Suvarnabhumi (BKK)'));
    // Long after the field's text has settled (its searches wait a quarter of a second).
    await new Promise((resolve) => setTimeout(resolve, 400));
    await userEvent.click(screen.getByRole('button', { name: /options/i }));
    const option = await screen.findByRole('option');
    expect(option).toHaveTextContent('Bangkok');
    expect(option).toHaveTextContent('Suvarnabhumi, Thailand');
  });
});
