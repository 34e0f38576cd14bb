// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { activateEnglishForTests, activateSpanishForTests } from '../test-support/languages-for-tests.ts';
import { ErrorNotice } from './error-notice.tsx';
import { BffError } from '../lib/bff-error.ts';
import type { RecoveryAction } from '#shared/api/error-envelope.ts';

function apiError(
  recoveryAction: RecoveryAction,
  init: {
    code?: string;
    status?: number;
    retryAfterSeconds?: number | null;
    details?: unknown[];
    requestId?: string;
    traceId?: string;
  } = {},
) {
  return new BffError({
    status: init.status ?? 400,
    requestId: init.requestId,
    traceId: init.traceId,
    body: {
      code: init.code ?? 'SOMETHING',
      message: 'Server words that are not a contract',
      details: (init.details ?? []) as never,
      recoveryAction,
      retryAfterSeconds: init.retryAfterSeconds ?? null,
    },
  });
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ErrorNotice: the error grammar', () => {
  it('RETRY_NOW offers a retry button that re-runs the request', async () => {
    const onRetry = vi.fn();
    render(<ErrorNotice error={apiError('RETRY_NOW')} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('That did not work');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('RETRY_LATER counts down from retryAfterSeconds with the button disabled, then retries by itself', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    render(
      <ErrorNotice
        error={apiError('RETRY_LATER', { code: 'RATE_LIMIT_EXCEEDED', status: 429, retryAfterSeconds: 3 })}
        onRetry={onRetry}
      />,
    );
    expect(screen.getByText('Too many requests in a short time')).toBeInTheDocument();
    expect(screen.getByText('Trying again in 3 s')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeDisabled();
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByText('Trying again in 2 s')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(1000));
    act(() => void vi.advanceTimersByTime(1000));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('FIX_INPUT lists every field problem with a link to its field, in our words for known rules', () => {
    render(
      <ErrorNotice
        error={apiError('FIX_INPUT', {
          code: 'VALIDATION_ERROR',
          status: 422,
          details: [
            { field: 'passengers.adults', code: 'greater_than_equal', message: 'must be >= 1' },
            { field: 'itinerary.0.date', code: 'weird_rule', message: 'date is odd' },
          ],
        })}
        fieldLabels={{ 'passengers.adults': 'Adults' }}
      />,
    );
    const adults = screen.getByRole('link', { name: 'Adults' });
    expect(adults).toHaveAttribute('href', '#field-passengers-adults');
    expect(adults.parentElement).toHaveTextContent('This value is too small.');
    expect(screen.getByRole('link', { name: 'itinerary.0.date' }).parentElement).toHaveTextContent(
      'date is odd',
    );
  });

  it('CHANGE_SELECTION takes the traveler back to the choices', async () => {
    const onChangeSelection = vi.fn();
    render(
      <ErrorNotice
        error={apiError('CHANGE_SELECTION', { code: 'OFFER_EXPIRED', status: 410 })}
        onChangeSelection={onChangeSelection}
        changeSelectionLabel="Search again"
      />,
    );
    expect(screen.getByRole('heading', { name: 'Prices changed, choose again' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Search again' }));
    expect(onChangeSelection).toHaveBeenCalledTimes(1);
  });

  it('CHANGE_PAYMENT asks for another payment method and keeps the rest', () => {
    render(<ErrorNotice error={apiError('CHANGE_PAYMENT')} />);
    expect(screen.getByRole('heading', { name: 'The payment method was declined' })).toBeInTheDocument();
    expect(screen.getByText(/only the payment method needs to change/)).toBeInTheDocument();
  });

  it('CONTACT_SUPPORT shows the request id with a copy button and offers no retry', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ErrorNotice error={apiError('CONTACT_SUPPORT', { requestId: 'req-42' })} onRetry={vi.fn()} />);
    expect(screen.getByText('req-42')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy reference' }));
    expect(writeText).toHaveBeenCalledWith('req-42');
    expect(await screen.findByText('Reference copied')).toBeInTheDocument();
  });

  it('CONTACT_SUPPORT shows a short reference of the call’s trace when the app started one', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    render(<ErrorNotice error={apiError('CONTACT_SUPPORT', { requestId: 'req-42', traceId })} />);
    expect(screen.getByText('4bf92f3577b3')).toBeInTheDocument();
    expect(screen.queryByText('req-42')).not.toBeInTheDocument();
  });

  it('BLOCKED explains that nothing can be done here and offers no retry', () => {
    render(
      <ErrorNotice error={apiError('BLOCKED', { code: 'CSRF_REJECTED', status: 403 })} onRetry={vi.fn()} />,
    );
    expect(screen.getByRole('heading', { name: 'This action is not allowed' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('an expired session offers signing in again and coming back to the same page', () => {
    window.history.pushState({}, '', '/bookings?status=confirmed');
    render(<ErrorNotice error={apiError('BLOCKED', { code: 'UNAUTHORIZED', status: 401 })} />);
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute(
      'href',
      '/auth/login?returnTo=%2Fbookings%3Fstatus%3Dconfirmed',
    );
  });

  it('never shows the server message alone: our title and guidance come first', () => {
    render(<ErrorNotice error={apiError('RETRY_NOW', { code: 'NEW_CODE_FROM_V1' })} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('That did not work');
    expect(alert).toHaveTextContent('This is usually temporary. Try again.');
  });

  it('speaks the traveler’s language: a rate limit in Spanish, its countdown and retry, without the server’s English', () => {
    vi.useFakeTimers();
    activateSpanishForTests();
    try {
      render(
        <ErrorNotice
          error={apiError('RETRY_LATER', { code: 'RATE_LIMIT_EXCEEDED', status: 429, retryAfterSeconds: 3 })}
          onRetry={vi.fn()}
        />,
      );
      const alert = screen.getByRole('alert');
      expect(
        screen.getByRole('heading', { name: 'Demasiadas peticiones en poco tiempo' }),
      ).toBeInTheDocument();
      expect(alert).toHaveTextContent('Lo volveremos a intentar solos cuando acabe la espera.');
      expect(screen.getByText('Nuevo intento en 3 s')).toBeInTheDocument();
      act(() => void vi.advanceTimersByTime(1000));
      expect(screen.getByText('Nuevo intento en 2 s')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Reintentar' })).toBeDisabled();
      expect(alert).not.toHaveTextContent('Server words');
    } finally {
      activateEnglishForTests();
    }
  });
});
