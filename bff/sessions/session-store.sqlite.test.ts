import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionCipher } from './session-cipher.ts';
import { loadSessionKeys } from './session-keys.ts';
import type { StoredSession } from './session-store.ts';
import { SqliteSessionStore } from './session-store.sqlite.ts';
import { sampleSession } from '../test-support/session-samples.ts';

let dataDir: string;
let store: SqliteSessionStore;

const cipherFor = (dir: string) =>
  new SessionCipher(loadSessionKeys({ configured: undefined, dataDir: dir }));
const openStore = (dir: string) => new SqliteSessionStore(dir, cipherFor(dir));

/** Ids of their own shape, so that the test below can look for one in the files. */
const session = (overrides: Partial<StoredSession> = {}) =>
  sampleSession({ id: `id-${Math.random().toString(36).slice(2)}`, ...overrides });

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-store-'));
  store = openStore(dataDir);
});

afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('SqliteSessionStore', () => {
  it('keeps sessions across a restart', async () => {
    const stored = session();
    await store.set(stored);
    await store.close();
    store = openStore(dataDir);
    expect(await store.get(stored.id)).toEqual(stored);
  });

  it('keeps nothing secret in clear at rest, in files only the owner can read', async () => {
    const stored = session({
      id: 'session-id-that-is-a-credential-000000000000',
      accessToken: 'access-token-in-clear-must-not-appear',
      refreshToken: 'refresh-token-in-clear-must-not-appear',
    });
    await store.set(stored);
    await store.saveLoginTransaction({
      id: 'login-transaction-id-0000',
      state: 'state-value',
      nonce: 'nonce-value',
      codeVerifier: 'pkce-verifier-in-clear-must-not-appear',
      returnTo: '/',
      expiresAt: Date.now() + 60_000,
    });
    await store.close();
    const files = (await readdir(dataDir)).filter((name) => name.startsWith('sessions.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of [...files, 'session-keys']) {
      expect(((await stat(path.join(dataDir, name))).mode & 0o777).toString(8), name).toBe('600');
    }
    for (const name of files) {
      const bytes = (await readFile(path.join(dataDir, name))).toString('latin1');
      for (const secret of [
        'session-id-that-is-a-credential',
        'access-token-in-clear',
        'refresh-token-in-clear',
        'pkce-verifier-in-clear',
      ]) {
        expect(bytes.includes(secret), `${secret} in ${name}`).toBe(false);
      }
    }
    store = openStore(dataDir);
    expect(await store.get(stored.id)).toEqual(stored);
  });

  it('does not open sessions sealed with a key it no longer has', async () => {
    const stored = session();
    await store.set(stored);
    await store.close();
    await rm(path.join(dataDir, 'session-keys'));
    store = openStore(dataDir);
    expect(await store.get(stored.id)).toBeUndefined();
  });
});
