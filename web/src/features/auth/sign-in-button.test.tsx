// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { SignInButton } from './sign-in-button.tsx';
import { StartPage } from './start-page.tsx';
import { renderApp, testQueryClient } from '../../test-support/render-app.tsx';
import { sessionQueries } from './session-queries.ts';

afterEach(cleanup);

function returnToOf(button: HTMLElement): string | undefined {
  const form = button.closest('form');
  return (form?.elements.namedItem('returnTo') as HTMLInputElement | null)?.value;
}

describe('SignInButton', () => {
  it('from the start page, comes back to home (the next trip)', () => {
    renderApp(<SignInButton />, { url: '/' });
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button.closest('form')).toHaveAttribute('action', '/auth/login');
    expect(returnToOf(button)).toBe('/');
  });

  it('from a deep link, comes back to the same page with its query', () => {
    renderApp(<SignInButton />, { url: '/bookings?status=confirmed&vertical=flight' });
    expect(returnToOf(screen.getByRole('button', { name: 'Sign in' }))).toBe(
      '/bookings?status=confirmed&vertical=flight',
    );
  });

  it("the start page's own sign-in comes back to home, not to a search page", () => {
    const queryClient = testQueryClient();
    queryClient.setQueryData(sessionQueries.current().queryKey, { authenticated: false });
    renderApp(<StartPage />, { url: '/', queryClient });
    expect(returnToOf(screen.getByRole('button', { name: 'Sign in' }))).toBe('/');
  });
});
