import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SessionEncryptionKeysSchema, type SessionEncryptionKey } from './session-cipher.ts';

const KEY_FILE = 'session-keys';

/**
 * The keys that seal sessions at rest: SESSION_ENCRYPTION_KEYS when set (required with Redis, where every
 * instance must share them); otherwise, for the embedded store, one key generated on first start and kept
 * in the data folder, readable by the owner only.
 */
export function loadSessionKeys(input: {
  configured: readonly SessionEncryptionKey[] | undefined;
  dataDir: string;
}): readonly SessionEncryptionKey[] {
  if (input.configured !== undefined) return input.configured;
  const file = path.join(input.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(input.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `local:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return SessionEncryptionKeysSchema.parse(readFileSync(file, 'utf8').trim());
}
