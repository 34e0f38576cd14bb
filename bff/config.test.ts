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
});
