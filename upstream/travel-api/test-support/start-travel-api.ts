import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTravelApi } from '../build-travel-api.ts';
import { loadTravelApiConfig, type TravelApiConfig } from '../travel-api-config.ts';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0000000000000001';
export const TEST_CONSUMER = { slug: 'wayfare-web', secret: 'test-consumer-secret-000000000001' };

export interface RunningTravelApi {
  app: FastifyInstance;
  baseUrl: string;
  config: TravelApiConfig;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The travel API on a loopback port of its own, with a fresh data folder that close() removes. Push and
 * demo events are off; the admin API is on with TEST_ADMIN_TOKEN.
 */
export async function startTravelApi(env: Record<string, string> = {}): Promise<RunningTravelApi> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-test-'));
  const config = loadTravelApiConfig({
    TRAVEL_API_DATA_DIR: dataDir,
    TRAVEL_API_LOG_LEVEL: 'silent',
    TRAVEL_API_PUSH_WEBHOOK_URL: '',
    TRAVEL_API_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG: TEST_CONSUMER.slug,
    TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET: TEST_CONSUMER.secret,
    ...env,
  });
  const app = await buildTravelApi({ config });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('travel API did not bind a TCP port');
  return {
    app,
    baseUrl: `${config.TRAVEL_API_TLS ? 'https' : 'http'}://127.0.0.1:${address.port}`,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
