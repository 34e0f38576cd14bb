import type { lookup as systemLookup } from 'node:dns';
import { type LookupAddress } from 'node:dns';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPushService } from '../test-support/test-push-service.ts';
import { PushEndpointOriginsSchema, PushEndpointPolicy } from './push-endpoint-policy.ts';
import { createWebPushSender } from './web-push-sender.ts';

let pushService: TestPushService;
const vapid = webPush.generateVAPIDKeys();
const message = {
  payload: '{"notificationId":"n-1"}',
  topic: 'n-1',
  ttlSeconds: 60,
  urgency: 'normal' as const,
};

beforeAll(async () => {
  pushService = await new TestPushService().start();
});

afterAll(async () => {
  await pushService.close();
});

/** A resolver that answers each lookup of a name with the next of `answers` (a name that resolves anew). */
function scriptedLookup(answers: string[][]): typeof systemLookup {
  const lookup = (
    _hostname: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    const next = answers.length > 1 ? answers.shift() : answers[0];
    callback(
      null,
      (next ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return lookup as unknown as typeof systemLookup;
}

function senderFor(origins: string, allowLoopback: boolean, lookup?: typeof systemLookup) {
  const policy = new PushEndpointPolicy({
    origins: PushEndpointOriginsSchema.parse(origins),
    allowLoopback,
    ...(lookup ? { lookup } : {}),
  });
  return {
    policy,
    send: createWebPushSender({ vapid, subject: 'mailto:ops@wayfare.test', timeoutMs: 5000, policy }),
  };
}

describe('sending a Web Push through the endpoint policy', () => {
  it('never contacts an endpoint stored before the policy: it is unusable (and so removed)', async () => {
    const subscription = pushService.subscribe();
    const { send } = senderFor('https://fcm.googleapis.com', false);
    try {
      expect(await send(subscription, message)).toEqual({ kind: 'unusable' });
      expect(pushService.received).toEqual([]);
    } finally {
      await send.close();
    }
  });

  it('checks the name again as it connects: a name that now resolves to a private address is never contacted', async () => {
    const subscription = pushService.subscribe();
    const endpoint = subscription.endpoint.replace('http://127.0.0.1', 'http://localhost');
    const port = new URL(endpoint).port;
    // Loopback (allowed here) when stored, a private address by the time the message goes (DNS
    // rebinding). The system resolver would have answered loopback, and the push service would have
    // received the message: nothing arriving shows the connection used the checked lookup.
    const rebinding = scriptedLookup([['127.0.0.1'], ['10.0.0.7']]);
    const { policy, send } = senderFor(`http://localhost:${port}`, true, rebinding);
    try {
      expect(await policy.check(endpoint)).toEqual({ kind: 'allowed' });
      expect(await send({ ...subscription, endpoint }, message)).toEqual({ kind: 'unusable' });
      expect(pushService.received).toEqual([]);
    } finally {
      await send.close();
    }
  });

  it('sends to an allowed name through the addresses the policy checked', async () => {
    const subscription = pushService.subscribe();
    const endpoint = subscription.endpoint.replace('http://127.0.0.1', 'http://localhost');
    const port = new URL(endpoint).port;
    const { send } = senderFor(`http://localhost:${port}`, true, scriptedLookup([['127.0.0.1']]));
    try {
      expect(await send({ ...subscription, endpoint }, message)).toEqual({ kind: 'accepted' });
      expect(pushService.received.map((push) => push.payload)).toEqual([{ notificationId: 'n-1' }]);
    } finally {
      await send.close();
    }
  });
});
