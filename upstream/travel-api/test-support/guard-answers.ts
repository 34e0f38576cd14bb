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
  let tried = 0;
  for (const spelled of encodedSpellings(path)) {
    const got = await ask(spelled);
    tried += 1;
    if (got.status === 404) expect(got, `${method} ${spelled}`).toEqual(NOT_FOUND_ANSWER);
    else expect(got, `${method} ${spelled} (plain ${path})`).toEqual(plain);
  }
  return tried;
}
