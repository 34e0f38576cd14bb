import { createHmac, hash } from 'node:crypto';

/** The raw bytes of a request body; a string stands for its UTF-8 encoding, undefined for no body. */
export type SignableBody = Uint8Array | string | undefined;

export interface CanonicalRequest {
  method: string;
  /** The request target. A query string or fragment, if present, is not part of what is signed. */
  path: string;
  /** The exact text sent in the Service-Timestamp header. */
  timestamp: string;
  body: SignableBody;
  /**
   * hashBody(body), when the caller has it already: a call signed again (a retry, the other secret) or
   * checked against two secrets hashes its body once.
   */
  bodyHash?: string | undefined;
}

export interface SignRequestInput extends CanonicalRequest {
  secret: string;
}

export interface SignedHeadersInput {
  consumer: string;
  secret: string;
  method: string;
  path: string;
  body: SignableBody;
  /** hashBody(body), when the caller has it already (see CanonicalRequest). */
  bodyHash?: string | undefined;
  /** The signing instant; defaults to the current time. A number is milliseconds since the epoch. */
  now?: Date | number;
}

export interface SignedHeaders {
  'Service-Consumer': string;
  'Service-Timestamp': string;
  'Service-Signature': string;
}

/** SHA-256 of the empty byte string: the hash of every request without a body (every GET). */
const EMPTY_BODY_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Lowercase hex SHA-256 of the body bytes; no body hashes as the empty byte string. */
export function hashBody(body: SignableBody): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_HASH;
  // The one-shot digest: no Hash object per request.
  return hash('sha256', body, 'hex');
}

/** `METHOD\nPATH\nTIMESTAMP\nBODY_HASH`, exactly as the spec's Authentication section defines it. */
export function canonicalString({ method, path, timestamp, body, bodyHash }: CanonicalRequest): string {
  return `${method.toUpperCase()}\n${pathWithoutQuery(path)}\n${timestamp}\n${bodyHash ?? hashBody(body)}`;
}

/** Lowercase hex HMAC-SHA256 of the canonical string, keyed with the consumer secret. */
export function signRequest({ secret, ...request }: SignRequestInput): string {
  return createHmac('sha256', secret).update(canonicalString(request)).digest('hex');
}

/** The three consumer-signature headers for one request, timestamped in whole Unix seconds. */
export function signedHeaders({
  consumer,
  secret,
  method,
  path,
  body,
  bodyHash,
  now,
}: SignedHeadersInput): SignedHeaders {
  const timestamp = String(unixSeconds(now ?? Date.now()));
  return {
    'Service-Consumer': consumer,
    'Service-Timestamp': timestamp,
    'Service-Signature': signRequest({ method, path, timestamp, body, bodyHash, secret }),
  };
}

function pathWithoutQuery(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

function unixSeconds(instant: Date | number): number {
  return Math.floor((typeof instant === 'number' ? instant : instant.getTime()) / 1000);
}
