import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export const TEST_AUDIENCE = 'urn:wayfare:travel-api';
export const TEST_TRAVELER = {
  sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  email: 'alex@wayfare.example',
  name: 'Alex Morgan',
};

export interface TestIdentity {
  issuer: string;
  /** How many times the key set was fetched. */
  jwksFetches(): number;
  /** Signs an RS256 access token with the published key (or `key`/`kid` given), claims overridable. */
  token(
    claims?: JWTPayload,
    options?: { kid?: string; key?: CryptoKey; expiresInSeconds?: number },
  ): Promise<string>;
  /** A traveler of its own (a fresh sub and email) with a token, so that tests never share an inbox. */
  newTraveler(): Promise<{ sub: string; email: string; token: string }>;
  publicJwk: JWK;
  close(): Promise<void>;
}

/** A minimal identity platform: issuer metadata and a JWKS on a loopback port, and a token signer. */
export async function startTestIdentity(): Promise<TestIdentity> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  let fetches = 0;
  let issuer = '';
  const server: Server = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      return;
    }
    if (request.url === '/jwks') {
      fetches++;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('identity did not bind a TCP port');
  issuer = `http://127.0.0.1:${address.port}`;

  const token: TestIdentity['token'] = async (claims = {}, options = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: issuer,
      aud: TEST_AUDIENCE,
      sub: TEST_TRAVELER.sub,
      email: TEST_TRAVELER.email,
      name: TEST_TRAVELER.name,
      iat: now,
      exp: now + (options.expiresInSeconds ?? 300),
      jti: crypto.randomUUID(),
      client_id: 'wayfare-bff',
      scope: 'openid',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key-1', typ: 'at+jwt' })
      .sign(options.key ?? privateKey);
  };

  return {
    issuer,
    publicJwk,
    jwksFetches: () => fetches,
    token,
    async newTraveler() {
      const sub = crypto.randomUUID();
      const email = `${sub.slice(0, 8)}@wayfare.test`;
      return { sub, email, token: await token({ sub, email }) };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
