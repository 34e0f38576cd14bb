import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsumerRegistry } from '../consumer-registry.ts';

const script = path.join(import.meta.dirname, 'rotate-secret.ts');
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'wayfare-rotate-'));
  folders.push(folder);
  return folder;
}

function rotate(dir: string, slug: string) {
  return spawnSync(process.execPath, [script, slug], {
    encoding: 'utf8',
    env: { ...process.env, TRAVEL_API_DATA_DIR: dir },
  });
}

describe('npm run travel-api:rotate-secret', () => {
  it('changes only the consumer it names: an unknown one is refused and nothing is registered', async () => {
    const dir = await dataDir();
    const result = rotate(dir, 'wayfare-web');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Unknown consumer "wayfare-web"');
    const registry = path.join(dir, 'consumers.json');
    if (existsSync(registry)) expect(readFileSync(registry, 'utf8')).not.toContain('wayfare-web');
  });

  it('rotates a registered consumer and leaves the others as they were', async () => {
    const dir = await dataDir();
    const registry = new ConsumerRegistry(path.join(dir, 'consumers.json'));
    registry.ensureConsumer('wayfare-web', 'first-secret-of-the-web-consumer-0001');
    registry.ensureConsumer('partner-app', 'first-secret-of-the-partner-app-0001');
    const result = rotate(dir, 'partner-app');
    expect(result.status, result.stderr).toBe(0);
    const after = new ConsumerRegistry(path.join(dir, 'consumers.json'));
    expect(await after.secretsFor('wayfare-web')).toEqual({
      current: 'first-secret-of-the-web-consumer-0001',
    });
    const partner = await after.secretsFor('partner-app');
    expect(partner?.current).not.toBe('first-secret-of-the-partner-app-0001');
    expect(partner?.previous?.secret).toBe('first-secret-of-the-partner-app-0001');
  });
});
