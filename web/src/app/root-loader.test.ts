// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testQueryClient } from '../test-support/render-app.tsx';
import { envelope, stubFetch, type StubbedResponse } from '../test-support/stub-fetch.ts';
import { sessionQueries } from '../features/auth/session-queries.ts';
import { demoQueries } from '../features/demo/demo-queries.ts';
import { rootLoader } from './root-loader.ts';
import { i18n } from '../i18n/i18n.ts';
import { activateEnglishForTests } from '../test-support/languages-for-tests.ts';

const SESSION = {
  authenticated: true,
  kind: 'traveler',
  traveler: { id: 'alex', name: 'Alex Morgan', email: 'alex@wayfare.example' },
};

afterEach(() => {
  vi.unstubAllGlobals();
  activateEnglishForTests();
});

describe('the loader of every page', () => {
  it('knows the session and whether the demo controls are on before the first paint, asking both at once', async () => {
    const asked: string[] = [];
    const answers = Promise.withResolvers<void>();
    stubFetch(async (url) => {
      asked.push(url);
      await answers.promise;
      return url === '/api/session' ? { json: SESSION } : { json: { enabled: true } };
    });
    const queryClient = testQueryClient();
    const loaded = rootLoader(queryClient)();
    await vi.waitFor(() => expect(asked.sort()).toEqual(['/api/demo/status', '/api/session']));
    answers.resolve();

    expect(await loaded).toMatchObject(SESSION);
    expect(queryClient.getQueryData(demoQueries.status().queryKey)).toEqual({ enabled: true });
    expect(queryClient.getQueryData(sessionQueries.current().queryKey)).toMatchObject(SESSION);
  });

  it('shows the page when either answer fails: the screens say what went wrong', async () => {
    const failing: StubbedResponse = { status: 503, json: envelope('SERVICE_UNAVAILABLE', 'RETRY_LATER') };
    stubFetch((url) => (url === '/api/session' ? { json: SESSION } : failing));
    expect(await rootLoader(testQueryClient())()).toMatchObject(SESSION);

    stubFetch((url) => (url === '/api/session' ? failing : { json: { enabled: true } }));
    expect(await rootLoader(testQueryClient())()).toBeNull();
  });

  it('paints a traveler’s first screen in the language of the profile the session answer names, once', async () => {
    const spanish = { ...SESSION, traveler: { ...SESSION.traveler, locale: 'es-ES' } };
    stubFetch((url) => (url === '/api/session' ? { json: spanish } : { json: { enabled: true } }));
    const load = rootLoader(testQueryClient());
    await load();
    expect(i18n.locale).toBe('es');
    expect(document.documentElement.lang).toBe('es');

    // Later the profile's own answer decides: a session answer read again does not switch back.
    activateEnglishForTests();
    await load();
    expect(i18n.locale).toBe('en');
  });
});
