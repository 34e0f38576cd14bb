import { describe, expect, it } from 'vitest';
import { precacheEntries } from './service-worker-plugin.ts';

describe('precacheEntries', () => {
  it('precaches every file of the shell, hashed assets by name and the rest by content, never the worker itself', () => {
    const entries = precacheEntries(
      new Map<string, string | Uint8Array>([
        ['index.html', '<html>one</html>'],
        ['assets/index-abc123.js', 'code'],
        ['favicon.svg', new Uint8Array([1, 2, 3])],
        ['sw.js', 'worker'],
        ['assets/index-abc123.js.map', '{}'],
      ]),
    );
    expect(entries.map((entry) => entry.url)).toEqual([
      '/assets/index-abc123.js',
      '/favicon.svg',
      '/index.html',
    ]);
    expect(entries[0]?.revision).toBeNull();
    expect(entries[2]?.revision).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives index.html a new revision when it changes, so a new build replaces the saved shell', () => {
    const revision = (html: string) => precacheEntries(new Map([['index.html', html]]))[0]?.revision;
    expect(revision('<html>one</html>')).toBe(revision('<html>one</html>'));
    expect(revision('<html>one</html>')).not.toBe(revision('<html>two</html>'));
  });
});
