// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';
import { CalendarFeedSection } from './calendar-feed-section.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const FIRST = 'https://wayfare.example/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics';
const SECOND = 'https://wayfare.example/calendar/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.ics';

/** The BFF's calendar feed routes, with the addresses it hands out in turn. */
function stubFeedRoutes(addresses: string[], initiallyOn = false) {
  let enabled = initiallyOn;
  return stubFetch((url, init) => {
    if (url !== '/api/calendar-feed') return { status: 404, json: {} };
    if (init.method === 'POST') {
      enabled = true;
      return { json: { url: addresses.shift(), createdAt: '2026-11-26T09:00:00.000Z' } };
    }
    if (init.method === 'DELETE') {
      enabled = false;
      return { status: 204 };
    }
    return { json: { enabled, createdAt: enabled ? '2026-11-25T09:00:00.000Z' : null } };
  });
}

describe('CalendarFeedSection', () => {
  it('turns the feed on, shows its address to copy, and puts focus on what happened', async () => {
    stubFeedRoutes([FIRST]);
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(<CalendarFeedSection />, { url: '/profile', path: '/profile' });
    expect(await screen.findByText('Your calendar feed is off.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on calendar feed' }));

    const turnedOn = await screen.findByText(
      'Calendar feed turned on. Add the address below to your calendar app.',
    );
    expect(turnedOn).toHaveAttribute('role', 'status');
    await waitFor(() => expect(turnedOn).toHaveFocus());
    expect(screen.getByRole('textbox', { name: 'Calendar address' })).toHaveValue(FIRST);
    expect(screen.getByText('Your calendar feed is on.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(writeText).toHaveBeenCalledWith(FIRST);
    await waitFor(() => expect(screen.getByText('Address copied.')).toHaveFocus());
  });

  it('rotates to a new address, saying the old one no longer works, then turns the feed off', async () => {
    stubFeedRoutes([SECOND], true);
    renderApp(<CalendarFeedSection />, { url: '/profile', path: '/profile' });
    expect(await screen.findByText(/The address is shown only when it is made\./)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Calendar address' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Get a new address' }));
    const rotated = await screen.findByText('New address made. The previous address no longer works.');
    await waitFor(() => expect(rotated).toHaveFocus());
    expect(screen.getByRole('textbox', { name: 'Calendar address' })).toHaveValue(SECOND);

    await userEvent.click(screen.getByRole('button', { name: 'Turn off calendar feed' }));
    const off = await screen.findByText('Calendar feed turned off. Its address no longer works.');
    await waitFor(() => expect(off).toHaveFocus());
    expect(screen.queryByRole('textbox', { name: 'Calendar address' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Turn on calendar feed' })).toBeInTheDocument();
  });

  it("says why an action failed, in the error envelope's words", async () => {
    stubFetch((_url, init) =>
      init.method === 'POST'
        ? {
            status: 503,
            json: {
              error: {
                code: 'SERVICE_UNAVAILABLE',
                message: 'Try again shortly.',
                details: [],
                recoveryAction: 'RETRY_LATER',
                retryAfterSeconds: 5,
              },
            },
          }
        : { json: { enabled: false, createdAt: null } },
    );
    renderApp(<CalendarFeedSection />, { url: '/profile', path: '/profile' });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on calendar feed' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Calendar address' })).toBeNull();
  });
});
