import { afterEach, describe, expect, it } from 'vitest';
import { activateEnglishForTests, activateSpanishForTests } from '../test-support/languages-for-tests.ts';
import { fieldProblemsByPath, presentError, shouldRetryRead } from './error-grammar.ts';
import { BffError, networkError } from './bff-error.ts';

type Envelope = BffError['body'];

const envelope = (status: number, body: Pick<Envelope, 'code' | 'recoveryAction'> & Partial<Envelope>) =>
  new BffError({ status, body: { message: 'm', details: [], retryAfterSeconds: null, ...body } });

const validation = (...details: Envelope['details']) =>
  envelope(422, { code: 'VALIDATION_ERROR', details, recoveryAction: 'FIX_INPUT' });

/** A RETRY_LATER failure, with the server's words and wait. */
const later = (status: number, code: string, message: string, retryAfterSeconds: number | null) =>
  envelope(status, { code, message, recoveryAction: 'RETRY_LATER', retryAfterSeconds });

const error = (recoveryAction: Envelope['recoveryAction'], status = 500, code = 'X') =>
  envelope(status, { code, recoveryAction });

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
    const providerDown = later(503, 'SERVICE_UNAVAILABLE', 'The hotel provider is not answering', 4);
    expect(presentError(providerDown)).toMatchObject({
      title: 'The hotel provider is not answering',
      serverMessage: '',
      retryAfterSeconds: 4,
    });
    const unnamed = later(503, 'SERVICE_UNAVAILABLE', '', null);
    expect(presentError(unnamed).title).toBe('The travel service is not answering right now');
  });

  it('gives RETRY_LATER a wait even when the server sent none', () => {
    expect(presentError(error('RETRY_LATER', 503)).retryAfterSeconds).toBe(5);
  });

  it('keys field problems by the server path, first problem per field', () => {
    expect(
      fieldProblemsByPath(
        validation(
          { field: 'checkIn', code: 'date_in_past', message: 'x' },
          { field: 'checkIn', code: 'other', message: 'y' },
        ),
      ),
    ).toEqual({ checkIn: 'Choose a date that is not in the past.' });
  });

  it('treats an unknown thrown value as a retryable unexpected error', () => {
    expect(presentError(new Error('boom'))).toMatchObject({ action: 'RETRY_NOW', code: 'UNEXPECTED_ERROR' });
  });

  describe('in Spanish', () => {
    afterEach(activateEnglishForTests);

    it('says the failure in Spanish and leaves out the server’s English words, the provider’s name included', () => {
      activateSpanishForTests();
      const rateLimited = later(
        429,
        'RATE_LIMIT_EXCEEDED',
        'Too many requests to the travel service. Please wait a moment.',
        7,
      );
      expect(presentError(rateLimited)).toMatchObject({
        title: 'Demasiadas peticiones en poco tiempo',
        guidance: 'Lo volveremos a intentar solos cuando acabe la espera.',
        serverMessage: '',
        retryAfterSeconds: 7,
      });
      const providerDown = later(503, 'SERVICE_UNAVAILABLE', 'The hotel provider is not answering', 4);
      expect(presentError(providerDown).title).toBe('El servicio de viajes no responde ahora mismo');
    });

    it('names field problems in Spanish, a rule it does not know with a general message', () => {
      activateSpanishForTests();
      expect(
        fieldProblemsByPath(
          validation(
            { field: 'checkIn', code: 'date_in_past', message: 'Check-in is in the past' },
            { field: 'guests', code: 'custom_rule', message: 'Too many guests for this room' },
          ),
        ),
      ).toEqual({
        checkIn: 'Elige una fecha que no haya pasado.',
        guests: 'Este valor no es válido.',
      });
    });
  });
});
