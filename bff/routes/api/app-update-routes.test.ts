import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuestSessionStatusSchema } from '#shared/api/guest-session-status.ts';
import { UpdateCheckSchema } from '#shared/upstream/app-update.ts';
import { ErrorEnvelopeSchema } from '#shared/upstream/error-envelope.ts';
import { startGatewayStack, type GatewayStack } from '../../test-support/gateway-stack.ts';

const ALEX = '5f1c2a7e-0b1d-4c5e-9a01-000000000001';
const ANONYMOUS_QUOTA = 20;
const BURST = 60;
const CHECK = '/api/app/update-check?currentVersion=1.0.0';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: unknown;
}

/** A client at a loopback address of its own, which the BFF sees as its request.ip. */
function clientAt(localAddress: string) {
  const agent = new http.Agent({ localAddress, keepAlive: true });
  return {
    call(stack: GatewayStack, method: 'GET' | 'POST', path: string): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const sent = http.request(
          new URL(path, stack.bffUrl),
          { method, agent, headers: { 'x-requested-with': 'wayfare' } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
              }),
            );
          },
        );
        sent.on('error', reject);
        sent.end();
      });
    },
    close: () => agent.destroy(),
  };
}

describe('update check and the travel API’s quota for signed-out calls', () => {
  let stack: GatewayStack;
  const burstClient = clientAt('127.0.0.1');
  const otherClient = clientAt('127.0.0.2');

  beforeAll(async () => {
    stack = await startGatewayStack({
      bffEnv: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(ANONYMOUS_QUOTA) },
      // Every signed-out call reaches the travel API as one caller, the BFF: its quota is shared by all.
      travelApiEnv: { TRAVEL_API_RATE_LIMIT_MAX: '30' },
    });
  });

  afterAll(async () => {
    burstClient.close();
    otherClient.close();
    await stack.close();
  });

  const upstreamChecks = () => stack.tap.seen.filter((seen) => seen.url.startsWith('/v1/app/update-check'));

  it('refuses one client’s burst itself, while another address still checks and starts a guest session', async () => {
    const checksBefore = upstreamChecks().length;
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => burstClient.call(stack, 'GET', CHECK)),
    );

    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(served).toHaveLength(ANONYMOUS_QUOTA);
    expect(refused).toHaveLength(BURST - ANONYMOUS_QUOTA);
    for (const answer of served) UpdateCheckSchema.parse(answer.json);
    for (const answer of refused) {
      const { error } = ErrorEnvelopeSchema.parse(answer.json);
      expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', recoveryAction: 'RETRY_LATER' });
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(answer.headers['retry-after']).toBeDefined();
    }

    // Sam, signed out at another address, checks for an update; a new visitor there starts a guest session.
    const samsCheck = await otherClient.call(stack, 'GET', CHECK);
    expect(samsCheck.status).toBe(200);
    UpdateCheckSchema.parse(samsCheck.json);
    const guest = await otherClient.call(stack, 'POST', '/api/guest-session');
    expect(guest.status).toBe(201);
    expect(GuestSessionStatusSchema.parse(guest.json).kind).toBe('guest');

    // Every signed-out check above, the burst's and Sam's, was one call to the travel API.
    expect(upstreamChecks().length - checksBefore).toBe(1);
  });

  it('asks for a signed-in traveler’s check with their bearer, never giving it to anyone else', async () => {
    const alex = await stack.signIn();
    const announced = await stack.admin('PUT', `/admin/travelers/${ALEX}/app-release`, {
      latestVersion: '9.0.0',
      releaseNotes: null,
    });
    expect(announced.status).toBe(200);
    try {
      const alexs = await alex.fetch(CHECK, { headers: { 'x-requested-with': 'wayfare' } });
      expect(UpdateCheckSchema.parse(await alexs.json()).latestVersion).toBe('9.0.0');
      expect(upstreamChecks().at(-1)?.headers.authorization).toMatch(/^Bearer /);

      const others = await otherClient.call(stack, 'GET', CHECK);
      expect(UpdateCheckSchema.parse(others.json).latestVersion).not.toBe('9.0.0');
    } finally {
      await stack.admin('DELETE', `/admin/travelers/${ALEX}/app-release`);
    }
  });
});
