import { loadIdentityConfig } from './config.ts';
import { startIdentityServer } from './identity-server.ts';

const config = loadIdentityConfig();
const identity = await startIdentityServer(config, { watchSigningKeys: true });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    identity.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
