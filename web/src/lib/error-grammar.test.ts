import { describe, expect, it } from 'vitest';
import { fieldProblemsByPath, presentError, shouldRetryRead } from './error-grammar.ts';
import { ApiError, networkError } from './api-error.ts';

const error = (recoveryAction: ApiError['body']['recoveryAction'], status = 500, code = 'X') =>
  new ApiError({
    status,
    body: { code, message: 'm', details: [], recoveryAction, retryAfterSeconds: null },
  });

describe('error grammar', () => {
  it('retries a read once on its own for RETRY_NOW, never twice, never for other actions', () => {
    expect(shouldRetryRead(0, error('RETRY_NOW'))).toBe(true);
    expect(shouldRetryRead(1, error('RETRY_NOW'))).toBe(false);
    expect(shouldRetryRead(0, error('RETRY_LATER'))).toBe(false);
    expect(shouldRetryRead(0, error('CONTACT_SUPPORT'))).toBe(false);
    expect(shouldRetryRead(0, networkError(new TypeError('offline')))).toBe(true);
  });

  it('never retries an expired session', () => {
    expect(shouldRetryRead(0, error('RETRY_NOW', 401, 'UNAUTHORIZED'))).toBe(false);
  });

  it('names what is unavailable as the server does (which provider is down), not "busy"', () => {
    const providerDown = new ApiError({
      status: 503,
      body: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The hotel provider is not answering',
        details: [],
        recoveryAction: 'RETRY_LATER',
        retryAfterSeconds: 4,
      },
    });
    expect(presentError(providerDown)).toMatchObject({
      title: 'The hotel provider is not answering',
      serverMessage: '',
      retryAfterSeconds: 4,
    });
    const unnamed = new ApiError({
      status: 503,
      body: {
        code: 'SERVICE_UNAVAILABLE',
        message: '',
        details: [],
        recoveryAction: 'RETRY_LATER',
        retryAfterSeconds: null,
      },
    });
    expect(presentError(unnamed).title).toBe('The travel service is not answering right now');
  });

  it('gives RETRY_LATER a wait even when the server sent none', () => {
    expect(presentError(error('RETRY_LATER', 503)).retryAfterSeconds).toBe(5);
  });

  it('keys field problems by the server path, first problem per field', () => {
    const validation = new ApiError({
      status: 422,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'm',
        details: [
          { field: 'checkIn', code: 'date_in_past', message: 'x' },
          { field: 'checkIn', code: 'other', message: 'y' },
        ],
        recoveryAction: 'FIX_INPUT',
        retryAfterSeconds: null,
      },
    });
    expect(fieldProblemsByPath(validation)).toEqual({ checkIn: 'Choose a date that is not in the past.' });
  });

  it('treats an unknown thrown value as a retryable unexpected error', () => {
    expect(presentError(new Error('boom'))).toMatchObject({ action: 'RETRY_NOW', code: 'UNEXPECTED_ERROR' });
  });
});
