import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTravelApiConfig, TravelApiConfigError } from './travel-api-config.ts';

describe('travel API configuration', () => {
  it('works with no variable set', () => {
    const config = loadTravelApiConfig({});
    expect(config).toMatchObject({
      TRAVEL_API_HOST: 'localhost',
      TRAVEL_API_PORT: 4010,
      TRAVEL_API_DATA_DIR: '.data/travel-api',
      IDENTITY_ISSUER: 'http://localhost:4020',
      TRAVEL_API_AUDIENCE: 'urn:wayfare:travel-api',
      TRAVEL_API_SIGNATURE_SKEW_SECONDS: 300,
      TRAVEL_API_MAX_NIGHTS: 30,
      TRAVEL_API_SESSION_CACHE_SECONDS: 1800,
      TRAVEL_API_PUSH_WEBHOOK_URL: 'http://localhost:3000/webhooks/travel-api/push',
      TRAVEL_API_FAULTS: {},
    });
    expect(config.TRAVEL_API_ADMIN_TOKEN).toBeUndefined();
    expect(config.TRAVEL_API_CONSUMER_REGISTRY_FILE).toBe(path.join('.data/travel-api', 'consumers.json'));
  });

  it('turns the push channel off with an empty URL and reads start-up faults as JSON', () => {
    const config = loadTravelApiConfig({
      TRAVEL_API_PUSH_WEBHOOK_URL: '',
      TRAVEL_API_FAULTS: '{"startupInProgress":true}',
    });
    expect(config.TRAVEL_API_PUSH_WEBHOOK_URL).toBeUndefined();
    expect(config.TRAVEL_API_FAULTS).toEqual({ startupInProgress: true });
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadTravelApiConfig({
        TRAVEL_API_PORT: 'eighty',
        TRAVEL_API_ADMIN_TOKEN: 'short',
        TRAVEL_API_FAULTS: '{"nope":1}',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(TravelApiConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/TRAVEL_API_PORT/);
    expect(message).toMatch(/TRAVEL_API_ADMIN_TOKEN/);
    expect(message).toMatch(/TRAVEL_API_FAULTS/);
  });
});
