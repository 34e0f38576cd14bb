import { describe, expect, it } from 'vitest';
import {
  keepOnlyTraveler,
  keptPrivateCache,
  privateCacheName,
  travelerIdOfSession,
} from './private-cache.ts';

/** The part of Cache Storage these functions use, over a set of names. */
function fakeCacheStorage(names: string[]): CacheStorage & { names: Set<string> } {
  const set = new Set(names);
  return {
    names: set,
    keys: () => Promise.resolve([...set]),
    delete: (name: string) => Promise.resolve(set.delete(name)),
    has: (name: string) => Promise.resolve(set.has(name)),
    open: () => Promise.reject(new Error('not used')),
    match: () => Promise.resolve(undefined),
  };
}

describe('private cache', () => {
  it('keeps only the named traveler’s cache and leaves the app shell’s caches alone', async () => {
    const storage = fakeCacheStorage([
      privateCacheName('ana'),
      privateCacheName('ben'),
      'workbox-precache-v2-http://localhost/',
    ]);
    expect(await keepOnlyTraveler(storage, 'ben')).toBe(privateCacheName('ben'));
    expect([...storage.names]).toEqual([privateCacheName('ben'), 'workbox-precache-v2-http://localhost/']);
    expect(await keptPrivateCache(storage)).toBe(privateCacheName('ben'));
  });

  it('drops every traveler’s cache when nobody is signed in', async () => {
    const storage = fakeCacheStorage([privateCacheName('ana'), 'workbox-precache-v2-http://localhost/']);
    expect(await keepOnlyTraveler(storage, undefined)).toBeUndefined();
    expect([...storage.names]).toEqual(['workbox-precache-v2-http://localhost/']);
    expect(await keptPrivateCache(storage)).toBeUndefined();
  });

  it('names a traveler only from a signed-in traveler session', () => {
    const traveler = { authenticated: true, kind: 'traveler', traveler: { id: 'ana' } };
    expect(travelerIdOfSession(traveler)).toBe('ana');
    expect(travelerIdOfSession({ authenticated: true, kind: 'guest' })).toBeUndefined();
    expect(travelerIdOfSession({ authenticated: false })).toBeUndefined();
    expect(travelerIdOfSession(null)).toBeUndefined();
  });

  it('keeps traveler ids apart in the cache name however they are spelled', () => {
    expect(privateCacheName('a:b')).not.toBe(privateCacheName('a%3Ab:'));
  });
});
