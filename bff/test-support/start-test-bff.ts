import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { newSessionId } from '../sessions/session-plugin.ts';
import { startBff, type StartBffOptions } from './start-bff.ts';
import { seedTravelerSession } from './traveler-session.ts';

export interface TestBff {
  app: FastifyInstance;
  url: string;
  dataDir: string;
  /** Every log line the BFF wrote, when started with `logs`. */
  logs: string[];
  /** Seeds a signed-in traveler session; returns its id and the headers a same-origin fetch sends. */
  signIn(
    travelerId: string,
    options?: { guest?: boolean },
  ): Promise<{ sessionId: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export const TEST_CONSUMER_SECRET = 'test-consumer-secret-0000000001';
export const TEST_PUSH_SECRET = 'test-push-webhook-secret-000001';

/** The BFF on a loopback port 0 with a fresh data folder, pointed at the given travel API. */
export async function startTestBff(
  env: Record<string, string>,
  options: StartBffOptions = {},
): Promise<TestBff> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-bff-'));
  const bff = await startBff(
    {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      CONSUMER_SECRET: TEST_CONSUMER_SECRET,
      PUSH_WEBHOOK_SECRET: TEST_PUSH_SECRET,
      NOTIFICATION_RECONNECT_BASE_MS: '20',
      NOTIFICATION_RECONNECT_CAP_MS: '200',
      NOTIFICATION_HUB_LINGER_MS: '100',
      ...env,
    },
    options,
  );
  const { app, url, logs } = bff;
  let closed = false;
  return {
    app,
    url,
    dataDir,
    logs,
    async signIn(travelerId, options = {}) {
      if (!options.guest) {
        const { sessionId, cookie } = await seedTravelerSession(app, travelerId);
        return { sessionId, headers: { cookie, 'x-requested-with': 'wayfare' } };
      }
      const now = Date.now();
      const sessionId = newSessionId();
      await app.sessions.store.set({
        id: sessionId,
        kind: 'guest',
        createdAt: now,
        lastSeenAt: now,
        absoluteExpiresAt: now + 60 * 60 * 1000,
        guestToken: `guest-token-${travelerId}`,
      });
      return {
        sessionId,
        headers: { cookie: `${app.sessions.cookie.name}=${sessionId}`, 'x-requested-with': 'wayfare' },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await bff.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
