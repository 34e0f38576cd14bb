import { timingSafeEqual } from 'node:crypto';

import { hashBody, signRequest } from './sign-request.ts';

/** A consumer's signing secrets: the current one, and the one it replaced with the time of that rotation. */
export interface ConsumerSecrets {
  current: string;
  previous?: { secret: string; rotatedAt: Date };
}

/** The raw values of Service-Consumer, Service-Timestamp and Service-Signature, as received. */
export interface SignatureHeaders {
  consumer?: string | undefined;
  timestamp?: string | undefined;
  signature?: string | undefined;
}

export interface VerifySignatureInput {
  headers: SignatureHeaders;
  method: string;
  /** The request target as received; its query string is not signed. */
  path: string;
  /** The body bytes exactly as received. */
  body: Uint8Array;
  /** The consumer's secrets, or undefined when the consumer is unknown. */
  secrets: ConsumerSecrets | undefined;
  now?: Date;
  skewSeconds?: number;
}

export type VerifySignatureResult = { ok: true; usedPrevious: boolean } | { ok: false };

export const DEFAULT_SKEW_SECONDS = 300;
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

const TIMESTAMP_PATTERN = /^\d{1,12}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
/** Keys the HMAC work done for an unknown consumer, so that it costs what a known one does. */
const UNKNOWN_CONSUMER_SECRET = 'unknown-consumer-0000000000000000';
const REJECTED: VerifySignatureResult = { ok: false };

/**
 * Checks a request's consumer signature: all three headers present, an integer timestamp within the skew
 * of `now` in either direction, and an HMAC made with the current secret or, for 24 hours after a
 * rotation, the previous one. Every failure, an unknown consumer included, returns the same `{ ok: false }`
 * after the same HMAC work, so that callers answer each with the one CONSUMER_AUTH_REQUIRED envelope.
 */
export function verifySignature({
  headers,
  method,
  path,
  body,
  secrets,
  now = new Date(),
  skewSeconds = DEFAULT_SKEW_SECONDS,
}: VerifySignatureInput): VerifySignatureResult {
  const { consumer, timestamp, signature } = headers;
  if (
    !isNonEmptyString(consumer) ||
    !isNonEmptyString(timestamp) ||
    !isNonEmptyString(signature) ||
    !TIMESTAMP_PATTERN.test(timestamp) ||
    !SIGNATURE_PATTERN.test(signature)
  ) {
    return REJECTED;
  }

  const presented = Buffer.from(signature, 'hex');
  // One hash of the body for both secrets.
  const bodyHash = hashBody(body);
  const signedWith = (secret: string): boolean =>
    timingSafeEqual(
      presented,
      Buffer.from(signRequest({ method, path, timestamp, body, bodyHash, secret }), 'hex'),
    );

  const matchesCurrent = signedWith(secrets?.current ?? UNKNOWN_CONSUMER_SECRET);
  const matchesPrevious = signedWith(secrets?.previous?.secret ?? UNKNOWN_CONSUMER_SECRET);

  if (secrets === undefined || !isFresh(timestamp, now, skewSeconds)) return REJECTED;
  if (matchesCurrent) return { ok: true, usedPrevious: false };
  if (matchesPrevious && isWithinGrace(secrets.previous?.rotatedAt, now))
    return { ok: true, usedPrevious: true };
  return REJECTED;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isFresh(timestamp: string, now: Date, skewSeconds: number): boolean {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return Math.abs(nowSeconds - Number(timestamp)) <= skewSeconds;
}

function isWithinGrace(rotatedAt: Date | undefined, now: Date): boolean {
  return rotatedAt !== undefined && now.getTime() - rotatedAt.getTime() < PREVIOUS_SECRET_GRACE_MS;
}
