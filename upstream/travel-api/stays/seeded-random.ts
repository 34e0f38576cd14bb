import { createHash } from 'node:crypto';

/**
 * A deterministic pseudo-random sequence keyed by any list of parts (seed, ids, dates): the same parts
 * always give the same sequence. sfc32 over the first 128 bits of SHA-256 of the joined parts.
 */
export class SeededRandom {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(...parts: readonly (string | number | boolean)[]) {
    const digest = createHash('sha256').update(parts.map(String).join('\u001f')).digest();
    this.#a = digest.readUInt32BE(0);
    this.#b = digest.readUInt32BE(4);
    this.#c = digest.readUInt32BE(8);
    this.#d = digest.readUInt32BE(12);
    for (let warmUp = 0; warmUp < 12; warmUp++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.#a >>>= 0;
    this.#b >>>= 0;
    this.#c >>>= 0;
    this.#d >>>= 0;
    let t = (this.#a + this.#b) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#d = (this.#d + 1) | 0;
    t = (t + this.#d) | 0;
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct items in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let index = pool.length - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [pool[index], pool[other]] = [pool[other] as T, pool[index] as T];
    }
    return pool.slice(0, Math.min(count, pool.length));
  }

  /** A UUID (RFC 9562 version 8, custom) drawn from the sequence. */
  uuid(): string {
    const hex = Array.from({ length: 4 }, () =>
      Math.floor(this.next() * 4_294_967_296)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
