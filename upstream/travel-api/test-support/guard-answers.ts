import { expect } from 'vitest';
import { encodedSpellings } from '#shared/path-spellings.ts';

/** What a guard test compares of an answer: its status and its envelope's code. */
export interface GuardAnswer {
  status: number;
  code: string | undefined;
}

export const NOT_FOUND_ANSWER: GuardAnswer = { status: 404, code: 'RESOURCE_NOT_FOUND' };

export async function guardAnswer(response: Response): Promise<GuardAnswer> {
  const text = await response.text();
  try {
    return { status: response.status, code: (JSON.parse(text) as { error?: { code?: string } }).error?.code };
  } catch {
    return { status: response.status, code: undefined };
  }
}

/**
 * Asks a path, then every spelling that percent-encodes a character of it: each must get the plain path's
 * refusal or a 404 envelope. Only refusals are compared (an answer that did something would not repeat).
 * Returns how many spellings were tried.
 */
export async function expectSpellingsGuarded(
  method: string,
  path: string,
  ask: (path: string) => Promise<GuardAnswer>,
): Promise<number> {
  const plain = await ask(path);
  if (plain.status < 400 || plain.status === 404) return 0;
  const spellings = encodedSpellings(path);
  // Refusals change nothing, so the spellings are asked several at a time.
  for (let start = 0; start < spellings.length; start += SPELLINGS_AT_ONCE) {
    const batch = spellings.slice(start, start + SPELLINGS_AT_ONCE);
    const answers = await Promise.all(batch.map((spelled) => ask(spelled)));
    for (const [index, got] of answers.entries()) {
      const spelled = batch[index];
      if (got.status === 404) expect(got, `${method} ${spelled}`).toEqual(NOT_FOUND_ANSWER);
      else expect(got, `${method} ${spelled} (plain ${path})`).toEqual(plain);
    }
  }
  return spellings.length;
}

/** How many spellings of a path are asked at the same time. */
const SPELLINGS_AT_ONCE = 8;
