import { describe, expect, it } from 'vitest';
import { SessionCipher, SessionEncryptionKeysSchema } from './session-cipher.ts';

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

describe('SESSION_ENCRYPTION_KEYS', () => {
  it('reads id:base64 entries in order, the first one sealing', () => {
    const keys = SessionEncryptionKeysSchema.parse(`new:${key(2)}, old:${key(1)}`);
    expect(keys.map((entry) => entry.id)).toEqual(['new', 'old']);
    expect(new SessionCipher(keys).currentKeyId).toBe('new');
  });

  it.each([
    ['', 'at least one key'],
    [`nokey${key(1)}`, 'id:base64key'],
    [`short:${Buffer.alloc(16).toString('base64')}`, '32 bytes'],
    [`a:${key(1)},a:${key(2)}`, 'listed twice'],
  ])('refuses %j at start-up', (value, message) => {
    const parsed = SessionEncryptionKeysSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(message);
  });
});

describe('SessionCipher', () => {
  const [current, previous] = SessionEncryptionKeysSchema.parse(`k2:${key(2)},k1:${key(1)}`);
  const rotated = new SessionCipher([current!, previous!]);
  const beforeRotation = new SessionCipher([previous!]);

  it('opens what it sealed, and never shows the plaintext in the sealed value', () => {
    const sealed = rotated.seal('{"accessToken":"secret-token"}', 'session:1');
    expect(sealed).not.toContain('secret-token');
    expect(sealed.startsWith('v1.k2.')).toBe(true);
    expect(rotated.open(sealed, 'session:1')).toBe('{"accessToken":"secret-token"}');
  });

  it('opens values sealed with a previous key after a rotation and marks them for re-sealing', () => {
    const sealed = beforeRotation.seal('data', 'session:1');
    expect(rotated.open(sealed, 'session:1')).toBe('data');
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal('data', 'session:1'))).toBe(false);
  });

  it('refuses a value moved to another key, tampered with, or sealed with a retired key', () => {
    const sealed = rotated.seal('data', 'session:1');
    expect(rotated.open(sealed, 'session:2')).toBeUndefined();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(rotated.open(parts.join('.'), 'session:1')).toBeUndefined();
    expect(new SessionCipher([previous!]).open(sealed, 'session:1')).toBeUndefined();
    expect(rotated.open('not sealed', 'session:1')).toBeUndefined();
  });
});
