import { describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { formUnlessSearched } from './search-form-loader.ts';

const visit = (loader: ReturnType<typeof formUnlessSearched>, url: string) =>
  loader({ request: new Request(new URL(url, 'http://localhost')) } as unknown as LoaderFunctionArgs);

describe('a search page’s loader', () => {
  it('fetches the form’s code with the page’s when the page opens without a search, and waits for it', async () => {
    let arrive: () => void = () => undefined;
    const preload = vi.fn(() => new Promise<void>((resolve) => (arrive = resolve)));
    const loading = visit(formUnlessSearched({ preload }, 'leg'), '/flights');
    expect(preload).toHaveBeenCalledTimes(1);
    let done = false;
    void loading.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    arrive();
    expect(await loading).toBeNull();
  });

  it('leaves the form’s code for later on a results link, whose form is folded', async () => {
    const preload = vi.fn(() => Promise.resolve());
    expect(await visit(formUnlessSearched({ preload }, 'leg'), '/flights?leg=LHR.JFK.2026-12-27')).toBeNull();
    expect(preload).not.toHaveBeenCalled();
  });

  it('draws the page even when the form’s code could not be fetched: the form asks again as it draws', async () => {
    const preload = vi.fn(() => Promise.reject(new Error('offline')));
    expect(await visit(formUnlessSearched({ preload }, 'checkIn'), '/stays?city=lisbon-pt')).toBeNull();
    expect(preload).toHaveBeenCalledTimes(1);
  });
});
