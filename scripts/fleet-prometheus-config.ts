// The Prometheus of `npm run start:fleet`: it scrapes every BFF instance's metrics listener and the travel
// API stand-in (over HTTPS, trusting the stand-in's local authority), with Wayfare's alert rules.

export interface FleetPrometheusOptions {
  /** The BFF instances' metrics ports (METRICS_PORT), on 127.0.0.1. */
  bffMetricsPorts: number[];
  travelApiPort: number;
  /** The travel API's local certificate authority (its TLS). */
  travelApiCaFile: string;
  /** ops/prometheus/alerts.yml, as an absolute path. */
  rulesFile: string;
  /** How often every target is scraped and the rules evaluated, in seconds. */
  intervalSeconds: number;
}

/** prometheus.yml for the fleet (JSON is YAML). */
export function fleetPrometheusConfig(options: FleetPrometheusOptions): string {
  const interval = `${options.intervalSeconds}s`;
  return JSON.stringify(
    {
      global: { scrape_interval: interval, evaluation_interval: interval },
      rule_files: [options.rulesFile],
      scrape_configs: [
        {
          job_name: 'wayfare-bff',
          static_configs: [
            {
              targets: options.bffMetricsPorts.map((port) => `127.0.0.1:${port}`),
            },
          ],
        },
        {
          job_name: 'wayfare-travel-api',
          scheme: 'https',
          tls_config: { ca_file: options.travelApiCaFile },
          static_configs: [{ targets: [`localhost:${options.travelApiPort}`] }],
        },
      ],
    },
    null,
    2,
  );
}
