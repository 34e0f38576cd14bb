import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PREVIOUS_SECRET_GRACE_MS, type ConsumerSecrets } from '#shared/upstream/verify-signature.ts';

const ConsumerRecordSchema = z.object({
  slug: z.string().min(1),
  secret: z.string().min(16),
  /** The secret the last rotation replaced, and when the window of two valid secrets opened. */
  previous: z.object({ secret: z.string().min(16), rotatedAt: z.iso.datetime() }).nullable(),
  createdAt: z.iso.datetime(),
});
type ConsumerRecord = z.infer<typeof ConsumerRecordSchema>;

const RegistryFileSchema = z.object({ consumers: z.array(ConsumerRecordSchema) });
type RegistryFile = z.infer<typeof RegistryFileSchema>;

/** The registry could not be read: callers answer 503 SERVICE_UNAVAILABLE, RETRY_LATER. */
export class RegistryUnavailableError extends Error {
  override name = 'RegistryUnavailableError';
}

export interface RotationResult {
  slug: string;
  secret: string;
  previousValidUntil: Date;
}

/**
 * Registered consumers and their signing secrets, in one JSON file (mode 0600) that the rotation command
 * rewrites atomically. The file is re-read whenever it changes on disk, so a rotation by the command takes
 * effect in a running server at once.
 */
export class ConsumerRegistry {
  readonly file: string;
  #cache: { mtimeMs: number; size: number; bySlug: Map<string, ConsumerRecord> } | undefined;
  #failReads: () => boolean;

  constructor(file: string, options: { failReads?: () => boolean } = {}) {
    this.file = file;
    this.#failReads = options.failReads ?? (() => false);
  }

  /** Creates the registry when missing and registers the bootstrap consumer when it is absent. */
  ensureConsumer(slug: string, secret: string, now = new Date()): void {
    const registry = existsSync(this.file) ? this.#readSync() : { consumers: [] };
    if (registry.consumers.some((consumer) => consumer.slug === slug)) return;
    registry.consumers.push({ slug, secret, previous: null, createdAt: now.toISOString() });
    this.#writeSync(registry);
  }

  /** The secrets that verify a consumer's signatures now, or undefined for an unknown consumer. */
  async secretsFor(slug: string): Promise<ConsumerSecrets | undefined> {
    if (this.#failReads()) throw new RegistryUnavailableError('consumer registry read failure (injected)');
    const record = (await this.#load()).get(slug);
    if (!record) return undefined;
    return {
      current: record.secret,
      ...(record.previous
        ? { previous: { secret: record.previous.secret, rotatedAt: new Date(record.previous.rotatedAt) } }
        : {}),
    };
  }

  /**
   * Replaces a consumer's secret with a new random one. The replaced secret keeps verifying until 24 hours
   * after the rotation that opened the window of two valid secrets: a rotation inside that window does not
   * extend it ("whether or not another rotation occurred").
   */
  rotate(slug: string, now = new Date()): RotationResult {
    const registry = existsSync(this.file) ? this.#readSync() : { consumers: [] };
    const record = registry.consumers.find((consumer) => consumer.slug === slug);
    if (!record) throw new Error(`Unknown consumer "${slug}"`);
    const openWindow =
      record.previous && now.getTime() - Date.parse(record.previous.rotatedAt) < PREVIOUS_SECRET_GRACE_MS
        ? record.previous.rotatedAt
        : undefined;
    const rotatedAt = openWindow ?? now.toISOString();
    record.previous = { secret: record.secret, rotatedAt };
    record.secret = randomBytes(32).toString('base64url');
    this.#writeSync(registry);
    return {
      slug,
      secret: record.secret,
      previousValidUntil: new Date(Date.parse(rotatedAt) + PREVIOUS_SECRET_GRACE_MS),
    };
  }

  async #load(): Promise<Map<string, ConsumerRecord>> {
    try {
      const info = await stat(this.file);
      if (this.#cache && this.#cache.mtimeMs === info.mtimeMs && this.#cache.size === info.size) {
        return this.#cache.bySlug;
      }
      const registry = RegistryFileSchema.parse(JSON.parse(await readFile(this.file, 'utf8')));
      const bySlug = new Map(registry.consumers.map((consumer) => [consumer.slug, consumer]));
      this.#cache = { mtimeMs: info.mtimeMs, size: info.size, bySlug };
      return bySlug;
    } catch (error) {
      throw new RegistryUnavailableError('consumer registry could not be read', { cause: error });
    }
  }

  #readSync(): RegistryFile {
    return RegistryFileSchema.parse(JSON.parse(readFileSync(this.file, 'utf8')));
  }

  #writeSync(registry: RegistryFile): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(registry, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}
