import { loadIdentityConfig, signedTokenLifetimeSeconds } from './identity-config.ts';
import { rotateSigningKeys } from './signing-keys.ts';

// `npm run identity:rotate-keys`: a new signing key takes over; retired keys stay published until every
// token they signed has expired. A running identity server picks the change up by itself.
if (process.argv.includes('--help')) {
  console.log('usage: npm run identity:rotate-keys  (IDENTITY_DATA_DIR names the data folder)');
  process.exit(0);
}
const config = loadIdentityConfig();
const result = await rotateSigningKeys(config.IDENTITY_DATA_DIR, signedTokenLifetimeSeconds(config));
console.log(`Signing key rotated. Active key: ${result.activeKid}`);
console.log(`Published keys: ${result.publishedKids.join(', ')}`);
if (result.removedKids.length > 0) console.log(`Removed expired keys: ${result.removedKids.join(', ')}`);
