interface Entry<T> {
  answer: Promise<T>;
  /** Infinity while the call is under way: everyone who asks meanwhile waits for the same call. */
  expiresAt: number;
}

export interface SharedAnswersOptions {
  /** How long a successful answer is given again; 0 keeps nothing beyond the call itself. */
  ttlMs: number;
  /** How many questions are kept at most; the oldest goes first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Answers that are the same for every caller, by question: kept for a short time after they succeed, and
 * asked once however many callers want one at the same moment (single flight). A failure is not kept: the
 * next caller asks again.
 */
export class SharedAnswers<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor({ ttlMs, maxEntries, now = Date.now }: SharedAnswersOptions) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get(question: string, ask: () => Promise<T>): Promise<T> {
    const kept = this.#entries.get(question);
    if (kept && kept.expiresAt > this.#now()) return kept.answer;

    const entry: Entry<T> = { answer: ask(), expiresAt: Infinity };
    this.#entries.delete(question);
    this.#entries.set(question, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
    entry.answer.then(
      () => {
        entry.expiresAt = this.#now() + this.#ttlMs;
      },
      () => {
        if (this.#entries.get(question) === entry) this.#entries.delete(question);
      },
    );
    return entry.answer;
  }
}
