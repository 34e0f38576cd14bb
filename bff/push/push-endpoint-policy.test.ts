import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { isAllowedAddress, PushEndpointPolicy } from './push-endpoint-policy.ts';

describe('the push endpoint policy', () => {
  it('allows the push services of the browsers by default, and nothing else', () => {
    const config = loadConfig({});
    const policy = new PushEndpointPolicy({ origins: config.PUSH_ENDPOINT_ORIGINS, allowLoopback: false });
    const allowed = [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGxyz',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ];
    const refused = [
      'https://notify.windows.com/w/',
      'https://fcm.googleapis.com.example/x',
      'https://android.googleapis.com/gcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
    ];
    expect(allowed.filter((endpoint) => !policy.allowedUrl(endpoint))).toEqual([]);
    expect(refused.filter((endpoint) => policy.allowedUrl(endpoint))).toEqual([]);
  });

  it('connects to public unicast addresses only (loopback too, when allowed)', () => {
    const refused = ['10.1.2.3', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'];
    const refusedV6 = [
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '::',
    ];
    expect([...refused, ...refusedV6].filter((address) => isAllowedAddress(address, false))).toEqual([]);
    expect(isAllowedAddress('142.250.180.10', false)).toBe(true);
    expect(isAllowedAddress('2a00:1450:4001:80b::200a', false)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', false)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
  });

  it('takes origins only, and loopback push services only on a loopback BFF', () => {
    expect(() => loadConfig({ PUSH_ENDPOINT_ORIGINS: 'https://push.example/path' })).toThrow(/origin only/);
    expect(() => loadConfig({ PUSH_ENDPOINT_ORIGINS: 'https://push.*.example' })).toThrow(/wildcard/);
    expect(() => loadConfig({ PUSH_ENDPOINT_ORIGINS: 'http://push.example' })).toThrow(/loopback/);
    expect(() => loadConfig({ PUSH_ENDPOINT_ORIGINS: 'http://127.0.0.1:9000' })).toThrow(
      /PUSH_ENDPOINT_ALLOW_LOOPBACK=true/,
    );
    expect(() =>
      loadConfig({
        PUBLIC_ORIGIN: 'https://travel.example.com',
        CONSUMER_SECRET: 'a-consumer-secret-of-our-own',
        OIDC_CLIENT_SECRET: 'a-client-secret-of-our-own',
        PUSH_WEBHOOK_SECRET: 'a-webhook-secret-of-our-own',
        PUSH_ENDPOINT_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(/PUSH_ENDPOINT_ALLOW_LOOPBACK: only for a BFF on a loopback PUBLIC_ORIGIN/);
    const local = loadConfig({
      PUSH_ENDPOINT_ORIGINS: 'http://127.0.0.1:9000',
      PUSH_ENDPOINT_ALLOW_LOOPBACK: 'true',
    });
    expect(local.PUSH_ENDPOINT_ORIGINS).toEqual([
      { protocol: 'http:', host: '127.0.0.1', wildcard: false, port: '9000' },
    ]);
  });
});
