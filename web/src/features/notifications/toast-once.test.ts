// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToastClaims } from './toast-once.ts';

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
    const tab = createToastClaims(traveler, () => now);
    await tab.claim('n-1');
    expect(JSON.parse(localStorage.getItem(`wayfare:toasted:${traveler}`) ?? '[]')).toEqual([
      ['n-1', 1_000_000],
    ]);
    now += 11 * 60 * 1000;
    const laterTab = createToastClaims(traveler, () => now);
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
});
