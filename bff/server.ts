import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

let config: Config;
let app: FastifyInstance;
try {
  config = loadConfig();
  app = await buildApp({ config });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The list of every bad variable is the whole message: no stack to read past.
  console.error(error.message);
  process.exit(2);
}

/** What closing takes after the drain, at most, before the process exits anyway. */
const CLOSE_GRACE_MS = 10_000;

// SIGTERM or SIGINT: drain first (out of rotation, requests finished, streams and leases handed over),
// then close. After a crash, close at once.
closeWithGrace({ delay: config.SHUTDOWN_DRAIN_TIMEOUT_MS + CLOSE_GRACE_MS }, async ({ err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  else await app.drain.start(config.SHUTDOWN_DRAIN_TIMEOUT_MS);
  await app.close();
});

await app.listen({ host: config.HOST, port: config.PORT });
