import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsumerRegistry, RegistryUnavailableError } from './consumer-registry.ts';

const HOUR = 3_600_000;
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'registry-test-'));
  file = path.join(dir, 'consumers.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('consumer registry', () => {
  it('creates the file with the bootstrap consumer, readable only by its owner, once', async () => {
    const registry = new ConsumerRegistry(file);
    registry.ensureConsumer('web', 'secret-secret-secret-1');
    registry.ensureConsumer('web', 'another-secret-value-2');
    expect(await registry.secretsFor('web')).toEqual({ current: 'secret-secret-secret-1' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await registry.secretsFor('other')).toBeUndefined();
  });

  it('keeps the replaced secret with the time the two-secret window opened', async () => {
    const registry = new ConsumerRegistry(file);
    const t0 = new Date('2026-01-01T00:00:00Z');
    registry.ensureConsumer('web', 'secret-secret-secret-1', t0);
    const first = registry.rotate('web', t0);
    expect(first.previousValidUntil).toEqual(new Date(t0.getTime() + 24 * HOUR));
    expect(await registry.secretsFor('web')).toEqual({
      current: first.secret,
      previous: { secret: 'secret-secret-secret-1', rotatedAt: t0 },
    });

    const second = registry.rotate('web', new Date(t0.getTime() + 10 * HOUR));
    expect(second.previousValidUntil).toEqual(new Date(t0.getTime() + 24 * HOUR));
    expect(await registry.secretsFor('web')).toEqual({
      current: second.secret,
      previous: { secret: first.secret, rotatedAt: t0 },
    });

    const later = new Date(t0.getTime() + 30 * HOUR);
    const third = registry.rotate('web', later);
    expect(third.previousValidUntil).toEqual(new Date(later.getTime() + 24 * HOUR));
  });

  it('picks up a rotation written by another process', async () => {
    const server = new ConsumerRegistry(file);
    server.ensureConsumer('web', 'secret-secret-secret-1');
    await server.secretsFor('web');
    const rotation = new ConsumerRegistry(file).rotate('web');
    expect((await server.secretsFor('web'))?.current).toBe(rotation.secret);
    expect(await readFile(file, 'utf8')).toContain(rotation.secret);
  });

  it('reports an unreadable or injected read failure as RegistryUnavailableError', async () => {
    await expect(
      new ConsumerRegistry(path.join(dir, 'missing.json')).secretsFor('web'),
    ).rejects.toBeInstanceOf(RegistryUnavailableError);
    const failing = new ConsumerRegistry(file, { failReads: () => true });
    await expect(failing.secretsFor('web')).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it('refuses to rotate an unknown consumer', () => {
    const registry = new ConsumerRegistry(file);
    registry.ensureConsumer('web', 'secret-secret-secret-1');
    expect(() => registry.rotate('nobody')).toThrow(/Unknown consumer/);
  });
});
