// Rotates a consumer's signing secret in the registry and prints the new secret once.
// Usage: npm run travel-api:rotate-secret -- <consumer-slug>
import { loadTravelApiConfig } from '../config.ts';
import { ConsumerRegistry } from '../consumer-registry.ts';

const slug = process.argv[2];
if (!slug || slug.startsWith('-')) {
  console.error('Usage: npm run travel-api:rotate-secret -- <consumer-slug>');
  process.exit(2);
}

const config = loadTravelApiConfig();
const registry = new ConsumerRegistry(config.TRAVEL_API_CONSUMER_REGISTRY_FILE);
registry.ensureConsumer(
  config.TRAVEL_API_BOOTSTRAP_CONSUMER_SLUG,
  config.TRAVEL_API_BOOTSTRAP_CONSUMER_SECRET,
);
try {
  const rotation = registry.rotate(slug);
  console.log(`New secret for ${rotation.slug} (shown once; store it now):`);
  console.log(rotation.secret);
  console.log(`The previous secret keeps verifying until ${rotation.previousValidUntil.toISOString()}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
