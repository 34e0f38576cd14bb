import { describe, expect, it } from 'vitest';
import { readErrorBody, readErrorEnvelope } from './read-error-body.ts';

const body = {
  code: 'VALIDATION_ERROR',
  message: 'Some fields are invalid',
  details: [{ field: 'email', code: 'invalid_format', message: 'Expected an email address' }],
  recoveryAction: 'FIX_INPUT',
  retryAfterSeconds: null,
};

describe('readErrorBody', () => {
  it('reads the spec’s envelope and keeps fields added within /v1', () => {
    expect(readErrorEnvelope({ error: body })).toEqual(body);
    const grown = { ...body, reason: { code: 'same_flight', reference: 'ABC123' }, hint: 'new' };
    expect(readErrorEnvelope({ error: grown })).toEqual(grown);
    expect(readErrorBody({ ...body, retryAfterSeconds: 30 })).toEqual({ ...body, retryAfterSeconds: 30 });
  });

  it('answers undefined for anything that is not an envelope', () => {
    for (const value of [
      undefined,
      null,
      'Bad Gateway',
      [],
      { message: 'Internal Server Error' },
      { error: 'boom' },
      { error: { ...body, code: 42 } },
      { error: { ...body, details: 'none' } },
      { error: { ...body, details: [{ field: 'email' }] } },
      { error: { ...body, recoveryAction: 'PANIC' } },
      { error: { ...body, retryAfterSeconds: '30' } },
      { error: { ...body, reason: 'clash' } },
    ])
      expect(readErrorEnvelope(value)).toBeUndefined();
  });
});
