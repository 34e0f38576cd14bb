import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionCipher } from './session-cipher.ts';
import { loadSessionKeys } from './session-keys.ts';
import type { StoredSession } from './session-store.ts';
import { SqliteSessionStore } from './session-store.sqlite.ts';

let dataDir: string;
let store: SqliteSessionStore;

const cipherFor = (dir: string) =>
  new SessionCipher(loadSessionKeys({ configured: undefined, dataDir: dir }));
const openStore = (dir: string) => new SqliteSessionStore(dir, cipherFor(dir));

function session(overrides: Partial<StoredSession> = {}): StoredSession {
  const now = Date.now();
  return {
    id: `id-${Math.random().toString(36).slice(2)}`,
    kind: 'traveler',
    createdAt: now,
    lastSeenAt: now,
    absoluteExpiresAt: now + 60_000,
    travelerId: 'traveler-a',
    identitySessionId: 'sid-a',
    accessToken: 'access',
    accessTokenExpiresAt: now + 60_000,
    refreshToken: 'refresh',
    ...overrides,
  };
}

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

  it('finds sessions by identity session id and by traveler', async () => {
    const a1 = session();
    const a2 = session({ identitySessionId: 'sid-a2' });
    const b = session({ travelerId: 'traveler-b', identitySessionId: 'sid-b' });
    for (const entry of [a1, a2, b]) await store.set(entry);
    expect((await store.findBySid('sid-a')).map((entry) => entry.id)).toEqual([a1.id]);
    expect((await store.findBySubject('traveler-a')).map((entry) => entry.id).sort()).toEqual(
      [a1.id, a2.id].sort(),
    );
    expect(await store.findBySid('unknown')).toEqual([]);
  });

  it('reports a delete once', async () => {
    const stored = session();
    await store.set(stored);
    expect(await store.delete(stored.id)).toBe(true);
    expect(await store.delete(stored.id)).toBe(false);
    expect(await store.get(stored.id)).toBeUndefined();
  });

  it('moves the idle clock forward only', async () => {
    const stored = session();
    await store.set(stored);
    await store.touch(stored.id, stored.lastSeenAt + 1000);
    await store.touch(stored.id, stored.lastSeenAt - 5000);
    expect((await store.get(stored.id))?.lastSeenAt).toBe(stored.lastSeenAt + 1000);
  });

  it('lists idle and past-lifetime sessions as expired', async () => {
    const now = Date.now();
    const idle = session({ lastSeenAt: now - 10_000 });
    const old = session({ absoluteExpiresAt: now - 1 });
    const live = session();
    for (const entry of [idle, old, live]) await store.set(entry);
    expect((await store.findExpired(now, 5_000)).sort()).toEqual([idle.id, old.id].sort());
  });

  it('hands a login transaction out once, and never after it expired', async () => {
    const transaction = {
      id: 'tx',
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      expiresAt: Date.now() + 60_000,
    };
    await store.saveLoginTransaction(transaction);
    expect(await store.takeLoginTransaction('tx')).toEqual(transaction);
    expect(await store.takeLoginTransaction('tx')).toBeUndefined();
    await store.saveLoginTransaction({ ...transaction, id: 'old', expiresAt: Date.now() - 1 });
    expect(await store.takeLoginTransaction('old')).toBeUndefined();
  });

  it('remembers logout token ids to refuse replays', async () => {
    expect(await store.rememberLogoutTokenId('jti-1', Date.now() + 60_000)).toBe(true);
    expect(await store.rememberLogoutTokenId('jti-1', Date.now() + 60_000)).toBe(false);
    expect(await store.rememberLogoutTokenId('jti-2', Date.now() + 60_000)).toBe(true);
  });
});
