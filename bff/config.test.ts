import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('BFF configuration', () => {
  it('works on loopback with no variable set', () => {
    const config = loadConfig({});
    expect(config.PUBLIC_ORIGIN).toBe('http://localhost:3000');
    expect(config.TRAVEL_API_URL).toBe('http://localhost:4010');
  });

  it('lists every missing or bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', PUBLIC_ORIGIN: 'not a url' })).toThrow(
      /PORT[\s\S]*PUBLIC_ORIGIN/,
    );
  });

  it('refuses the development secrets when browsers reach it on another host', () => {
    const attempt = () => loadConfig({ PUBLIC_ORIGIN: 'https://travel.example.com' });
    expect(attempt).toThrow(/CONSUMER_SECRET/);
    expect(attempt).toThrow(/OIDC_CLIENT_SECRET/);
    expect(attempt).toThrow(/PUSH_WEBHOOK_SECRET/);
  });

  it('accepts an origin elsewhere once every secret is its own', () => {
    const config = loadConfig({
      PUBLIC_ORIGIN: 'https://travel.example.com',
      CONSUMER_SECRET: 'a-consumer-secret-of-our-own',
      OIDC_CLIENT_SECRET: 'a-client-secret-of-our-own',
      PUSH_WEBHOOK_SECRET: 'a-webhook-secret-of-our-own',
    });
    expect(config.PUBLIC_ORIGIN).toBe('https://travel.example.com');
  });

  it('serves HTTPS only with both a certificate and its key', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: 'cert.pem' })).toThrow(/TLS_CERT_FILE, TLS_KEY_FILE: set both/);
    expect(() => loadConfig({ TLS_KEY_FILE: 'key.pem' })).toThrow(/TLS_CERT_FILE, TLS_KEY_FILE: set both/);
    const config = loadConfig({ TLS_CERT_FILE: 'cert.pem', TLS_KEY_FILE: 'key.pem' });
    expect(config.TLS_CERT_FILE).toBe('cert.pem');
  });

  it('reads the Sentinels of a Redis primary, and names what is wrong with them', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.1.7:26379, sentinel-b.internal:26380,[::1]:26381',
      REDIS_SENTINEL_NAME: 'wayfare',
    });
    expect(config.REDIS_SENTINELS).toEqual([
      { host: '10.0.1.7', port: 26379 },
      { host: 'sentinel-b.internal', port: 26380 },
      { host: '::1', port: 26381 },
    ]);
    expect(() => loadConfig({ REDIS_SENTINELS: '10.0.1.7', REDIS_SENTINEL_NAME: 'wayfare' })).toThrow(
      /REDIS_SENTINELS: "10.0.1.7" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_SENTINELS: 'a:70000', REDIS_SENTINEL_NAME: 'wayfare' })).toThrow(
      /REDIS_SENTINELS: "a:70000" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_SENTINELS: ' , ', REDIS_SENTINEL_NAME: 'wayfare' })).toThrow(
      /REDIS_SENTINELS: list at least one Sentinel/,
    );
    expect(() => loadConfig({ REDIS_SENTINELS: '10.0.1.7:26379' })).toThrow(
      /REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/,
    );
  });

  it('takes one Redis: a URL or Sentinels, and Sentinel settings only with Sentinels', () => {
    expect(() =>
      loadConfig({
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_SENTINELS: '127.0.0.1:26379',
        REDIS_SENTINEL_NAME: 'wayfare',
      }),
    ).toThrow(/REDIS_URL, REDIS_SENTINELS: set one of them/);
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PASSWORD: 'secret', REDIS_TLS: 'true' }),
    ).toThrow(
      /REDIS_PASSWORD: only with REDIS_SENTINELS; with REDIS_URL, credentials are in the URL[\s\S]*REDIS_TLS: only with REDIS_SENTINELS/,
    );
    expect(() => loadConfig({ REDIS_SENTINEL_NAME: 'wayfare' })).toThrow(
      /REDIS_SENTINEL_NAME: only with REDIS_SENTINELS/,
    );
  });
});
