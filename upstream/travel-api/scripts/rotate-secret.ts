// Rotates a consumer's signing secret in the registry and prints the new secret once.
// Usage: npm run travel-api:rotate-secret -- <consumer-slug>
import { loadTravelApiConfig } from '../travel-api-config.ts';
import { ConsumerRegistry } from '../consumer-registry.ts';

const USAGE = 'Usage: npm run travel-api:rotate-secret -- <consumer-slug>';
const slug = process.argv[2];
if (slug === '--help') {
  console.log(USAGE);
  process.exit(0);
}
if (!slug || slug.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}

// A rotation changes only the consumer it names: nothing is registered on the way.
const config = loadTravelApiConfig();
const registry = new ConsumerRegistry(config.TRAVEL_API_CONSUMER_REGISTRY_FILE);
try {
  const rotation = registry.rotate(slug);
  console.log(`New secret for ${rotation.slug} (shown once; store it now):`);
  console.log(rotation.secret);
  console.log(`The previous secret keeps verifying until ${rotation.previousValidUntil.toISOString()}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
