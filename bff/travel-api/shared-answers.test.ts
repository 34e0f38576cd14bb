import { describe, expect, it } from 'vitest';
import { SharedAnswers } from './shared-answers.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('SharedAnswers', () => {
  it('asks once for every caller that wants the same answer while it is under way', async () => {
    const answers = new SharedAnswers<string>({ ttlMs: 1_000, maxEntries: 10, now: () => 0 });
    const call = deferred<string>();
    let asked = 0;
    const waiting = Array.from({ length: 50 }, () =>
      answers.get('q', () => {
        asked += 1;
        return call.promise;
      }),
    );
    call.resolve('a');
    expect(await Promise.all(waiting)).toEqual(Array(50).fill('a'));
    expect(asked).toBe(1);
  });

  it('gives a kept answer again until it is older than its lifetime, then asks again', async () => {
    let now = 0;
    const answers = new SharedAnswers<number>({ ttlMs: 1_000, maxEntries: 10, now: () => now });
    let asked = 0;
    const ask = () => Promise.resolve(++asked);
    expect(await answers.get('q', ask)).toBe(1);
    now = 999;
    expect(await answers.get('q', ask)).toBe(1);
    now = 1_000;
    expect(await answers.get('q', ask)).toBe(2);
  });

  it('keeps no failure: the next caller asks again', async () => {
    const answers = new SharedAnswers<string>({ ttlMs: 1_000, maxEntries: 10, now: () => 0 });
    await expect(answers.get('q', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await answers.get('q', () => Promise.resolve('back'))).toBe('back');
  });

  it('keeps each question apart, and no more questions than its bound', async () => {
    const answers = new SharedAnswers<string>({ ttlMs: 1_000, maxEntries: 2, now: () => 0 });
    let asked = 0;
    const ask = (text: string) => () => {
      asked += 1;
      return Promise.resolve(text);
    };
    expect(await answers.get('a', ask('A'))).toBe('A');
    expect(await answers.get('b', ask('B'))).toBe('B');
    expect(await answers.get('c', ask('C'))).toBe('C');
    expect(await answers.get('b', ask('B2'))).toBe('B');
    expect(await answers.get('a', ask('A2'))).toBe('A2');
    expect(asked).toBe(4);
  });
});
