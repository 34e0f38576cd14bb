// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { UpdateBanner } from './update-banner.tsx';
import { updateCheckQueries } from './update-check-queries.ts';
import { useSearchInProgress } from '../../lib/search-activity.ts';
import { renderApp } from '../../test-support/render-app.tsx';
import { stubFetch } from '../../test-support/stub-fetch.ts';

const release = (updateAvailable: boolean) => ({
  latestVersion: '1.1.0',
  minimumVersion: '1.0.0',
  updateAvailable,
  updateRequired: false,
  releaseNotes: null,
  releasedAt: '2026-11-22T12:00:00Z',
});

function SearchThenBanner() {
  const [busy, setBusy] = useState(true);
  useSearchInProgress(busy);
  return (
    <>
      <button type="button" onClick={() => setBusy(false)}>
        Finish the search
      </button>
      <UpdateBanner />
    </>
  );
}

/** Resolves once the update check has its answer and the page has rendered with it. */
async function answered(queryClient: QueryClient): Promise<void> {
  await vi.waitFor(() =>
    expect(queryClient.getQueryCache().findAll({ queryKey: updateCheckQueries.all() })[0]?.state.status).toBe(
      'success',
    ),
  );
  await act(() => Promise.resolve());
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UpdateBanner', () => {
  it('offers a reload when the update check says a new version exists, and sends this build’s version', async () => {
    const fetchMock = stubFetch(() => ({ json: release(true) }));
    renderApp(<UpdateBanner />);
    expect(await screen.findByText('A new version of Wayfare (1.1.0) is available.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/app/update-check?currentVersion=1.0.0');
  });

  it('stays away when the app is current', async () => {
    stubFetch(() => ({ json: release(false) }));
    const { queryClient } = renderApp(<UpdateBanner />);
    // Judged once the answer is in and rendered, not before it arrives.
    await answered(queryClient);
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });

  it('waits while a search is streaming, then appears; Later dismisses it', async () => {
    stubFetch(() => ({ json: release(true) }));
    const { queryClient } = renderApp(<SearchThenBanner />);
    await answered(queryClient);
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Finish the search' }));
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });
});
