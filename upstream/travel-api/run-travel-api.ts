import closeWithGrace from 'close-with-grace';
import { buildTravelApi } from './build-travel-api.ts';
import { loadTravelApiConfig, TravelApiConfigError } from './travel-api-config.ts';

if (process.argv.includes('--help')) {
  console.log(
    'usage: npm run start:travel-api  (settings from the environment: see README, "The stand-ins")',
  );
  process.exit(0);
}

let config;
try {
  config = loadTravelApiConfig();
} catch (error) {
  if (!(error instanceof TravelApiConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const app = await buildTravelApi({ config });

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  await app.close();
});

await app.listen({ host: config.TRAVEL_API_HOST, port: config.TRAVEL_API_PORT });
