// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { StartPage } from './start-page.tsx';
import { renderApp, testQueryClient } from '../../test-support/render-app.tsx';
import { sessionQueries } from './session-queries.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';

afterEach(cleanup);

function signedOutAt(url: string) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(sessionQueries.current().queryKey, { authenticated: false });
  renderApp(<StartPage />, { url, queryClient });
}

describe('StartPage after a sign-in that did not complete', () => {
  it('says why beside the sign-in button, which comes back to home', () => {
    signedOutAt('/?signIn=expired');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This sign-in expired or was already used. Sign in again.',
    );
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form');
    expect((form?.elements.namedItem('returnTo') as HTMLInputElement | null)?.value).toBe('/');
  });

  it('says it in the traveler’s language', () => {
    activateSpanishForTests();
    try {
      signedOutAt('/?signIn=unavailable');
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Ahora no se puede iniciar sesión. Vuelve a intentarlo dentro de un momento.',
      );
    } finally {
      activateEnglishForTests();
    }
  });

  it('says nothing for a problem it does not know, or none', () => {
    signedOutAt('/?signIn=constructor');
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();
    signedOutAt('/');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
