import { loadIdentityConfig } from './identity-config.ts';
import { loadSigningKeys } from './signing-keys.ts';

if (process.argv.includes('--help')) {
  console.log('usage: npm run start:identity  (settings from the environment: see README, "The stand-ins")');
  process.exit(0);
}

const config = loadIdentityConfig();
// On a first start the RSA key is generated in the thread pool while oidc-provider loads.
const signingKeys = loadSigningKeys(config.IDENTITY_DATA_DIR);
const { startIdentityServer } = await import('./identity-server.ts');
const identity = await startIdentityServer(config, { watchSigningKeys: true, signingKeys });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    identity.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
