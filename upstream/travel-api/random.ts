import { createHash } from 'node:crypto';

/** A seeded pseudo-random source: the same parts always give the same sequence. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** A UUID (version 4 layout) drawn from the sequence. */
  uuid(): string;
}

/** sfc32 seeded with SHA-256 of the parts. */
export function createRandom(...parts: readonly (string | number)[]): Random {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const random: Random = {
    next: () => nextUint32() / 4_294_967_296,
    int: (min, max) => min + Math.floor(random.next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(random.next() * items.length)];
      if (item === undefined) throw new RangeError('pick from an empty list');
      return item;
    },
    chance: (probability) => random.next() < probability,
    uuid: () => {
      const bytes = Buffer.alloc(16);
      for (let i = 0; i < 16; i += 4) bytes.writeUInt32LE(nextUint32(), i);
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
  for (let i = 0; i < 12; i++) nextUint32();
  return random;
}
