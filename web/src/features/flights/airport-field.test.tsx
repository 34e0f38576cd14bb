// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AirportField } from './airport-field.tsx';
import type { AirportChoice } from './flight-search-params.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Field() {
  const [value, setValue] = useState<AirportChoice | null>(null);
  return <AirportField id="origin" label="From" value={value} onChange={setValue} />;
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
});
