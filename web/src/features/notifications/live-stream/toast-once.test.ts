// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToastClaims, type ClaimLocks } from './toast-once.ts';

const traveler = 'traveler-1';

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('toast once per traveler across tabs', () => {
  it('lets the first tab claim a notification and refuses every later claim', async () => {
    const tabA = createToastClaims(traveler);
    const tabB = createToastClaims(traveler);
    expect(await tabA.claim('n-1')).toBe(true);
    expect(await tabB.claim('n-1')).toBe(false);
    expect(await tabA.claim('n-1')).toBe(false);
    expect(await tabB.claim('n-2')).toBe(true);
    tabA.close();
    tabB.close();
  });

  it('keeps only ids and times in storage, and forgets them after ten minutes', async () => {
    let now = 1_000_000;
    const tab = createToastClaims(traveler, { now: () => now });
    await tab.claim('n-1');
    expect(JSON.parse(localStorage.getItem(`wayfare:toasted:${traveler}`) ?? '[]')).toEqual([
      ['n-1', 1_000_000],
    ]);
    now += 11 * 60 * 1000;
    const laterTab = createToastClaims(traveler, { now: () => now });
    expect(await laterTab.claim('n-1')).toBe(true);
    tab.close();
    laterTab.close();
  });

  it('keeps travelers apart', async () => {
    const alex = createToastClaims('alex');
    const sam = createToastClaims('sam');
    expect(await alex.claim('n-1')).toBe(true);
    expect(await sam.claim('n-1')).toBe(true);
    alex.close();
    sam.close();
  });

  it('survives a corrupt record', async () => {
    localStorage.setItem(`wayfare:toasted:${traveler}`, '{not json');
    const tab = createToastClaims(traveler);
    expect(await tab.claim('n-1')).toBe(true);
    tab.close();
  });

  it("lets one tab toast when two hear an arrival at once and neither sees the other's storage yet", async () => {
    const locks = new FakeLockManager();
    const tabA = createToastClaims(traveler, { locks, storage: new MemoryStorage() });
    const tabB = createToastClaims(traveler, { locks, storage: new MemoryStorage() });
    const claims = await Promise.all([tabA.claim('n-1'), tabB.claim('n-1')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // The winner keeps the claim while it is open; once it closes, its record is what remains.
    expect(await tabB.claim('n-1')).toBe(false);
    tabA.close();
    tabB.close();
  });
});

/** One browser's lock manager, shared by its tabs: exclusive locks, `ifAvailable` answered at once. */
class FakeLockManager implements ClaimLocks {
  readonly #held = new Set<string>();

  async request(
    name: string,
    options: LockOptions,
    callback: LockGrantedCallback<unknown>,
  ): Promise<unknown> {
    if (this.#held.has(name)) {
      if (options.ifAvailable) return callback(null);
      throw new Error('the fake lock manager only answers ifAvailable requests');
    }
    this.#held.add(name);
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      this.#held.delete(name);
    }
  }
}

/** A tab's own view of localStorage, which another tab's writes have not reached yet. */
class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value);
  }
}
