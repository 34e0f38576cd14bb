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

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  await app.close();
});

await app.listen({ host: config.HOST, port: config.PORT });
