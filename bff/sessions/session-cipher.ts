import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';

export interface SessionEncryptionKey {
  id: string;
  key: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * SESSION_ENCRYPTION_KEYS: a comma-separated list of `id:base64key` entries, each key 32 bytes
 * (AES-256). The first key encrypts; every key listed decrypts, so a new key is put first and the old
 * one stays listed until the sessions it sealed have expired.
 */
export const SessionEncryptionKeysSchema = z.string().transform((value, context): SessionEncryptionKey[] => {
  const keys: SessionEncryptionKey[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const key = Buffer.from(entry.slice(separator + 1), 'base64');
    if (separator <= 0 || !KEY_ID.test(id)) {
      context.addIssue({
        code: 'custom',
        message: 'each entry is id:base64key, id of letters, digits, - or _',
      });
      return z.NEVER;
    }
    if (key.length !== 32) {
      context.addIssue({
        code: 'custom',
        message: `key "${id}" must be 32 bytes of base64 (openssl rand -base64 32)`,
      });
      return z.NEVER;
    }
    if (keys.some((known) => known.id === id)) {
      context.addIssue({ code: 'custom', message: `key id "${id}" is listed twice` });
      return z.NEVER;
    }
    keys.push({ id, key });
  }
  if (keys.length === 0) {
    context.addIssue({ code: 'custom', message: 'at least one key is needed' });
    return z.NEVER;
  }
  return keys;
});

const VERSION = 'v1';

const hmacName = (nameKey: Buffer, id: string): string =>
  createHmac('sha256', nameKey).update(id, 'utf8').digest('base64url');

/**
 * AES-256-GCM sealing of what the BFF keeps in Redis about a session (its tokens above all). A sealed
 * value is `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url), bound to its Redis key through the
 * additional authenticated data, so a value copied under another session's key does not open.
 */
export class SessionCipher {
  readonly #keys: readonly SessionEncryptionKey[];
  /** One HMAC key per encryption key, derived from it (HKDF-SHA256): what names sessions in storage. */
  readonly #nameKeys: readonly Buffer[];

  constructor(keys: readonly SessionEncryptionKey[]) {
    if (keys.length === 0) throw new Error('SessionCipher needs at least one key');
    this.#keys = keys;
    this.#nameKeys = keys.map(({ key }) =>
      Buffer.from(hkdfSync('sha256', key, '', 'wayfare session id names', 32)),
    );
  }

  /**
   * The name a secret id (a session id: the browser's cookie) is kept under: an HMAC-SHA256 of it under a
   * key derived from the sealing key, base64url. Whoever reads the storage learns no id from the names.
   */
  nameOf(id: string): string {
    return hmacName(this.#nameKeys[0] as Buffer, id);
  }

  /** The names the other keys listed gave the id: where it was kept before the sealing key changed. */
  formerNamesOf(id: string): string[] {
    return this.#nameKeys.slice(1).map((nameKey) => hmacName(nameKey, id));
  }

  get currentKeyId(): string {
    return (this.#keys[0] as SessionEncryptionKey).id;
  }

  seal(plaintext: string, associatedData: string): string {
    const { id, key } = this.#keys[0] as SessionEncryptionKey;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      id,
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** The plaintext, or undefined when the value is malformed, sealed with an unknown key or tampered with. */
  open(sealed: string, associatedData: string): string | undefined {
    const [version, id, iv, ciphertext, tag, ...rest] = sealed.split('.');
    if (
      version !== VERSION ||
      rest.length > 0 ||
      iv === undefined ||
      ciphertext === undefined ||
      tag === undefined
    ) {
      return undefined;
    }
    const entry = this.#keys.find((candidate) => candidate.id === id);
    if (entry === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** True when the value was sealed with an older key (re-sealing it moves it to the current key). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentKeyId;
  }
}
