import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { TEST_SESSION_ENCRYPTION_KEYS } from '../test-support/bff-fleet.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function build(env: Record<string, string>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-redis-config-'));
  dirs.push(dir);
  return buildApp({ config: loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...env }), logger: false });
}

describe('choosing shared state by configuration', () => {
  it('keeps the embedded stores when REDIS_URL is not set', async () => {
    const app = await build({});
    expect(app.redis).toBeNull();
    await app.close();
  });

  it('refuses to start with REDIS_URL but no SESSION_ENCRYPTION_KEYS', async () => {
    await expect(build({ REDIS_URL: 'redis://127.0.0.1:9' })).rejects.toThrow(
      /SESSION_ENCRYPTION_KEYS is required with REDIS_URL/,
    );
  });

  it('refuses to start on Sentinels but no SESSION_ENCRYPTION_KEYS', async () => {
    await expect(build({ REDIS_SENTINELS: '127.0.0.1:9', REDIS_SENTINEL_NAME: 'wayfare' })).rejects.toThrow(
      /SESSION_ENCRYPTION_KEYS is required with REDIS_URL or REDIS_SENTINELS/,
    );
  });

  it('refuses to start with REDIS_URL but no shared VAPID key pair', async () => {
    await expect(
      build({ REDIS_URL: 'redis://127.0.0.1:9', SESSION_ENCRYPTION_KEYS: TEST_SESSION_ENCRYPTION_KEYS }),
    ).rejects.toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required/);
  });

  it('refuses a malformed key list, naming the variable', () => {
    expect(() => loadConfig({ SESSION_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toThrow(/SESSION_ENCRYPTION_KEYS/);
  });

  it('starts while Redis is unreachable and answers 503 RETRY_LATER until it is reachable', async () => {
    const vapid = webPush.generateVAPIDKeys();
    const app = await build({
      REDIS_URL: 'redis://127.0.0.1:9',
      SESSION_ENCRYPTION_KEYS: TEST_SESSION_ENCRYPTION_KEYS,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      REDIS_COMMAND_TIMEOUT_MS: '200',
    });
    const response = await app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `${app.sessions.cookie.name}=${'a'.repeat(43)}` },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', recoveryAction: 'RETRY_LATER' },
    });
    await app.close();
  });
});
