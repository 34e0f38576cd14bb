import { mkdtemp, rm } from 'node:fs/promises';
import type { DatabaseSync } from 'node:sqlite';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import { GuestSessionStore } from './guest-session-store.ts';

let dir: string;
let db: DatabaseSync;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'guest-store-test-'));
  db = openDatabase(dir);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('guest session store', () => {
  it('resolves a token until its lifetime ends, and never stores the token itself', () => {
    const store = new GuestSessionStore(db, 60);
    const created = new Date('2026-01-01T00:00:00Z');
    const session = store.create(created);
    expect(session.expiresAt).toBe('2026-01-01T00:01:00.000Z');
    expect(store.resolve(session.guestToken, new Date('2026-01-01T00:00:59Z'))).toBeDefined();
    expect(store.resolve(session.guestToken, new Date('2026-01-01T00:01:00Z'))).toBeUndefined();
    expect(store.resolve('wgs_forged', created)).toBeUndefined();
    const stored = JSON.stringify(db.prepare('SELECT * FROM guest_sessions').all());
    expect(stored).not.toContain(session.guestToken);
  });

  it('keeps guest sessions across a restart', () => {
    const session = new GuestSessionStore(db, 60).create();
    db.close();
    db = openDatabase(dir);
    expect(new GuestSessionStore(db, 60).resolve(session.guestToken)).toBeDefined();
  });
});
