import { describe, expect, it } from 'vitest';
import { fleetSummary, type FleetSummary } from './fleet-summary.ts';

const fleet: FleetSummary = {
  appOrigin: 'https://localhost:8443',
  frontCaFile: '/tmp/wayfare-fleet-x/tls/ca.pem',
  bffs: [
    { port: 41001, metricsPort: 41011 },
    { port: 41002, metricsPort: 41012 },
  ],
  travelApiOrigin: 'https://localhost:41020',
  travelApiCaFile: '/tmp/wayfare-fleet-x/travel-api/tls/ca.pem',
  identityOrigin: 'http://localhost:41030',
  redis: { primary: 41040, replica: 41041, sentinels: '127.0.0.1:41042,127.0.0.1:41043,127.0.0.1:41044' },
  redisDir: '/tmp/wayfare-fleet-x/redis',
  prometheusOrigin: 'http://127.0.0.1:41050',
  demo: true,
};

describe('what npm run start:fleet prints', () => {
  it('names every address of the fleet and the authorities to trust', () => {
    const text = fleetSummary(fleet).join('\n');
    for (const part of [
      'https://localhost:8443',
      '/tmp/wayfare-fleet-x/tls/ca.pem',
      'http://127.0.0.1:41001',
      'http://127.0.0.1:41002',
      'http://127.0.0.1:41011/metrics',
      'http://127.0.0.1:41012/metrics',
      'https://localhost:41020',
      '/tmp/wayfare-fleet-x/travel-api/tls/ca.pem',
      'http://localhost:41030',
      '127.0.0.1:41040',
      '127.0.0.1:41041',
      '127.0.0.1:41042,127.0.0.1:41043,127.0.0.1:41044',
      'http://127.0.0.1:41050',
    ])
      expect(text).toContain(part);
  });

  it('prints the simulate command with the travel API and its authority, in demo mode only', () => {
    expect(fleetSummary(fleet)).toContain(
      '[fleet] raise a travel event: NODE_EXTRA_CA_CERTS=/tmp/wayfare-fleet-x/travel-api/tls/ca.pem npm run simulate -- --url https://localhost:41020 --traveler alex@wayfare.example',
    );
    expect(fleetSummary({ ...fleet, demo: false }).join('\n')).not.toContain('npm run simulate');
  });
});
