// What `npm run start:fleet` prints once it is ready: every address an operator needs, the certificate
// authorities to trust, and the command that raises a travel event against this fleet. No password: the
// Redis and Sentinel ones are in the configuration files (mode 0600) under the folder it names.
import { FLEET_PRIMARY_NAME } from './fleet-redis-config.ts';

export interface FleetSummary {
  appOrigin: string;
  frontCaFile: string;
  bffs: Array<{ port: number; metricsPort: number }>;
  travelApiOrigin: string;
  travelApiCaFile: string;
  identityOrigin: string;
  redis: { primary: number; replica: number; sentinels: string };
  redisDir: string;
  prometheusOrigin?: string | undefined;
  demo: boolean;
}

export function fleetSummary(fleet: FleetSummary): string[] {
  return [
    `[fleet] front (open this): ${fleet.appOrigin}, its certificate signed by a local authority: ${fleet.frontCaFile}`,
    ...fleet.bffs.map(
      ({ port, metricsPort }, index) =>
        `[fleet] bff-${index + 1}: http://127.0.0.1:${port} (/healthz, /readyz), metrics http://127.0.0.1:${metricsPort}/metrics`,
    ),
    `[fleet] travel API: ${fleet.travelApiOrigin} (HTTPS/h2), its authority: ${fleet.travelApiCaFile}`,
    `[fleet] identity platform: ${fleet.identityOrigin}`,
    `[fleet] Redis: 127.0.0.1:${fleet.redis.primary} (primary at start) and 127.0.0.1:${fleet.redis.replica} (replica at start); Sentinels ${fleet.redis.sentinels}, primary name "${FLEET_PRIMARY_NAME}"; users, passwords and append-only files under ${fleet.redisDir}`,
    ...(fleet.prometheusOrigin === undefined
      ? []
      : [
          `[fleet] Prometheus: ${fleet.prometheusOrigin}, scraping the BFF instances and the travel API with ops/prometheus/alerts.yml`,
        ]),
    ...(fleet.demo
      ? [
          `[fleet] raise a travel event: NODE_EXTRA_CA_CERTS=${fleet.travelApiCaFile} npm run simulate -- --url ${fleet.travelApiOrigin} --traveler alex@wayfare.example`,
        ]
      : []),
    '[fleet] a process that dies is restarted (after 1 s, then longer while it keeps dying); Ctrl-C stops the fleet and removes its folder',
  ];
}
