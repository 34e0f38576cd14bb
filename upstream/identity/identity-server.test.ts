import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as client from 'openid-client';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadIdentityConfig, signedTokenLifetimeSeconds } from './identity-config.ts';
import { startIdentityServer, type IdentityServer } from './identity-server.ts';
import { rotateSigningKeys } from './signing-keys.ts';
import { storedId } from './sqlite-adapter.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE = process.execPath;
const REDIRECT_URI = 'http://localhost:3000/auth/callback';
const AUDIENCE = 'urn:wayfare:travel-api';
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\./;

const folders: string[] = [];
const servers: IdentityServer[] = [];
const logs: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
  for (const line of logs) {
    expect(line).not.toMatch(JWT_PATTERN);
    expect(line).not.toContain('dev-bff-client-secret');
  }
});

async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'wayfare-identity-'));
  folders.push(folder);
  return folder;
}

async function start(dataDir: string, env: Record<string, string> = {}, port = 0): Promise<IdentityServer> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const identity = await startIdentityServer(
    loadIdentityConfig({
      IDENTITY_ISSUER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      IDENTITY_DATA_DIR: dataDir,
      ...env,
    }),
    { server, logger: pino({ level: 'debug' }, sink) },
  );
  servers.push(identity);
  return identity;
}

/** Minimal browser: cookies per path, no redirects followed. */
class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const cookie = [...this.#cookies]
      .filter(([, entry]) => target.pathname.startsWith(entry.path))
      .map(([name, entry]) => `${name}=${entry.value}`)
      .join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const pathAttribute =
        attributes.find((entry) => entry.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, { value, path: pathAttribute });
    }
    return response;
  }
}

async function bffClient(issuer: string): Promise<client.Configuration> {
  return client.discovery(
    new URL(issuer),
    'wayfare-bff',
    'dev-bff-client-secret-change-me-0001',
    client.ClientSecretBasic('dev-bff-client-secret-change-me-0001'),
    { execute: [client.allowInsecureRequests] },
  );
}

/** Authorization code + PKCE through the real sign-in page, as the BFF does it. */
async function signIn(issuer: string, email = 'alex@wayfare.example', password = 'alex-demo') {
  const configuration = await bffClient(issuer);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorize = client.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email travel',
    resource: AUDIENCE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const jar = new CookieJar();
  const toInteraction = await jar.fetch(authorize.href);
  const interactionUrl = new URL(toInteraction.headers.get('location') ?? '', issuer).href;
  const page = await (await jar.fetch(interactionUrl)).text();
  const action = /action="([^"]+\/login)"/.exec(page)?.[1] ?? '';
  const afterLogin = await jar.fetch(new URL(action, issuer).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const resume = await jar.fetch(new URL(afterLogin.headers.get('location') ?? '', issuer).href);
  const callback = new URL(resume.headers.get('location') ?? '');
  const tokens = await client.authorizationCodeGrant(
    configuration,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
    { resource: AUDIENCE },
  );
  return { configuration, tokens, page, jar };
}

async function jwks(issuer: string): Promise<JSONWebKeySet> {
  return (await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet;
}

describe('identity platform stand-in', () => {
  it('starts with no configuration but a free port, answers, and closes gracefully on SIGTERM', async () => {
    // Start-up time is measured by `npm run bench -- startup`, not here.
    const dataDir = await dataFolder();
    const child = spawn(NODE, [path.join(ROOT, 'upstream/identity/run-identity.ts')], {
      cwd: dataDir,
      env: { PATH: process.env.PATH ?? '', IDENTITY_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const issuer = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (text: string) => {
          output += text;
          const match = /"issuer":"(http:\/\/localhost:\d+)".*"msg":"identity platform listening"/.exec(
            output,
          );
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      expect(issuer).not.toBe('http://localhost:0');
      const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(await discovery.json()).toMatchObject({ issuer });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('publishes discovery for PKCE S256, back-channel logout and RS256 public keys only', async () => {
    const identity = await start(await dataFolder());
    const metadata = (await (
      await fetch(`${identity.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: identity.issuer,
      code_challenge_methods_supported: ['S256'],
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      authorization_response_iss_parameter_supported: true,
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(metadata.end_session_endpoint).toBe(`${identity.issuer}/session/end`);
    const { keys } = await jwks(identity.issuer);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
    }
  });

  it('issues RS256 JWT access tokens for the travel API with the agreed claims', async () => {
    const identity = await start(await dataFolder());
    const { tokens } = await signIn(identity.issuer);
    const { payload, protectedHeader } = await jwtVerify(
      tokens.access_token,
      createLocalJWKSet(await jwks(identity.issuer)),
      {
        issuer: identity.issuer,
        audience: AUDIENCE,
        algorithms: ['RS256'],
      },
    );
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({
      iss: identity.issuer,
      sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
      aud: AUDIENCE,
      client_id: 'wayfare-bff',
      scope: 'travel',
      email: 'alex@wayfare.example',
      name: 'Alex Morgan',
    });
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    expect(tokens.claims()).toMatchObject({ name: 'Alex Morgan', email: 'alex@wayfare.example' });
    expect(tokens.claims()?.sid).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
  });

  it('rotates refresh tokens on every use and refuses a used one', async () => {
    const identity = await start(await dataFolder());
    const { configuration, tokens } = await signIn(identity.issuer);
    const first = tokens.refresh_token ?? '';
    const refreshed = await client.refreshTokenGrant(configuration, first, { resource: AUDIENCE });
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(first);
    await expect(
      client.refreshTokenGrant(configuration, first, { resource: AUDIENCE }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('keeps keys, sessions and refresh tokens across a restart', async () => {
    const dataDir = await dataFolder();
    const identity = await start(dataDir);
    const port = new URL(identity.issuer).port;
    const { tokens } = await signIn(identity.issuer);
    const keysBefore = await jwks(identity.issuer);
    await identity.close();
    servers.splice(servers.indexOf(identity), 1);
    // Let the client pool notice that its kept-alive connections to the old process are gone.
    await new Promise((resolve) => setImmediate(resolve));

    const restarted = await start(dataDir, {}, Number(port));
    expect(await jwks(restarted.issuer)).toEqual(keysBefore);
    await jwtVerify(tokens.access_token, createLocalJWKSet(await jwks(restarted.issuer)), {
      issuer: restarted.issuer,
    });
    const refreshed = await client.refreshTokenGrant(
      await bffClient(restarted.issuer),
      tokens.refresh_token ?? '',
      {
        resource: AUDIENCE,
      },
    );
    expect(refreshed.access_token).toBeTruthy();
  });

  it('keeps its data readable by its own user only, and no refresh token in it', async () => {
    const dataDir = path.join(await dataFolder(), 'identity');
    const identity = await start(dataDir);
    const { configuration, tokens } = await signIn(identity.issuer);
    const first = tokens.refresh_token ?? '';
    const second =
      (await client.refreshTokenGrant(configuration, first, { resource: AUDIENCE })).refresh_token ?? '';
    expect(second).not.toBe('');

    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
    const files = (await readdir(dataDir)).filter((name) => name.startsWith('identity.sqlite'));
    expect(files).toEqual(expect.arrayContaining(['identity.sqlite', 'identity.sqlite-wal']));
    for (const name of files) {
      const file = path.join(dataDir, name);
      expect(((await stat(file)).mode & 0o777).toString(8), name).toBe('600');
      const bytes = (await readFile(file)).toString('latin1');
      expect(bytes.includes(first), `the first refresh token in ${name}`).toBe(false);
      expect(bytes.includes(second), `the second refresh token in ${name}`).toBe(false);
    }
    // Looked up by the hash of what the client presents.
    const third = await client.refreshTokenGrant(configuration, second, { resource: AUDIENCE });
    expect(third.access_token).toBeTruthy();
  });

  it('re-keys the refresh tokens an older version kept under their values, and narrows its file', async () => {
    const dataDir = path.join(await dataFolder(), 'identity');
    const identity = await start(dataDir);
    const port = new URL(identity.issuer).port;
    const { tokens } = await signIn(identity.issuer);
    const refreshToken = tokens.refresh_token ?? '';
    await identity.close();
    servers.splice(servers.indexOf(identity), 1);
    // The record as versions before hashed ids wrote it, in files readable by everyone.
    const db = new DatabaseSync(path.join(dataDir, 'identity.sqlite'));
    db.prepare(
      `UPDATE oidc_models SET id = ?, payload = json_set(payload, '$.jti', ?) WHERE model = 'RefreshToken' AND id = ?`,
    ).run(refreshToken, refreshToken, storedId(refreshToken));
    db.close();
    await chmod(path.join(dataDir, 'identity.sqlite'), 0o644);
    await new Promise((resolve) => setImmediate(resolve));

    const restarted = await start(dataDir, {}, Number(port));
    expect(((await stat(path.join(dataDir, 'identity.sqlite'))).mode & 0o777).toString(8)).toBe('600');
    const refreshed = await client.refreshTokenGrant(await bffClient(restarted.issuer), refreshToken, {
      resource: AUDIENCE,
    });
    expect(refreshed.access_token).toBeTruthy();
    const check = new DatabaseSync(path.join(dataDir, 'identity.sqlite'), { readOnly: true });
    try {
      const raw = check.prepare('SELECT count(*) AS n FROM oidc_models WHERE id = ? OR payload LIKE ?');
      expect(raw.get(refreshToken, `%${refreshToken}%`)).toEqual({ n: 0 });
    } finally {
      check.close();
    }
  });

  it('rotates signing keys and keeps the old key published until its tokens expire', async () => {
    const dataDir = await dataFolder();
    const identity = await start(dataDir);
    const config = loadIdentityConfig({ IDENTITY_DATA_DIR: dataDir });
    const { tokens: before } = await signIn(identity.issuer);
    const oldKid = decodeProtectedHeader(before.access_token).kid;

    const rotatedAt = new Date();
    const rotation = await rotateSigningKeys(dataDir, signedTokenLifetimeSeconds(config), rotatedAt);
    await identity.reloadSigningKeys();
    const { tokens: after } = await signIn(identity.issuer, 'sam@wayfare.example', 'sam-demo');
    expect(decodeProtectedHeader(after.access_token).kid).toBe(rotation.activeKid);
    expect(rotation.activeKid).not.toBe(oldKid);

    const published = await jwks(identity.issuer);
    expect(published.keys.map((key) => key.kid)).toEqual([rotation.activeKid, oldKid]);
    await jwtVerify(before.access_token, createLocalJWKSet(published), { issuer: identity.issuer });

    const later = new Date(rotatedAt.getTime() + (signedTokenLifetimeSeconds(config) + 1) * 1000);
    const second = await rotateSigningKeys(dataDir, signedTokenLifetimeSeconds(config), later);
    expect(second.removedKids).toEqual([oldKid]);
    expect(second.publishedKids).toEqual([second.activeKid, rotation.activeKid]);
    const file = JSON.parse(await readFile(path.join(dataDir, 'signing-keys.json'), 'utf8')) as {
      keys: unknown[];
    };
    expect(file.keys).toHaveLength(2);
  });
});

describe('sign-out page', () => {
  it('confirms by itself the app’s own sign-out of this session, and asks for any other', async () => {
    const identity = await start(await dataFolder());
    const { tokens, jar } = await signIn(identity.issuer);
    const sid = tokens.claims()?.sid;
    if (typeof sid !== 'string') throw new Error('the ID token carries no sid');
    const endSession = (hint?: string) => {
      const url = new URL('/session/end', identity.issuer);
      url.searchParams.set('client_id', 'wayfare-bff');
      url.searchParams.set('post_logout_redirect_uri', 'http://localhost:3000/');
      if (hint !== undefined) url.searchParams.set('logout_hint', hint);
      return jar.fetch(url.href);
    };

    for (const hint of [undefined, 'another-session', '']) {
      const asked = await endSession(hint);
      expect(await asked.text(), String(hint)).toContain('Sign out of Wayfare?');
    }

    const app = await endSession(sid);
    const page = await app.text();
    expect(page).toContain('Signing you out…');
    expect(page).not.toContain('Sign out of Wayfare?');
    const nonce = /<script nonce="([^"]+)">[^<]*form\.submit\(\)/.exec(page)?.[1];
    expect(nonce).toBeTruthy();
    expect(app.headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}'`);
  });
});

/** Starts a sign-in as the app does and opens the identity platform's sign-in page, with `headers`. */
async function openSignInPage(issuer: string, headers: Record<string, string> = {}): Promise<Response> {
  const configuration = await bffClient(issuer);
  const jar = new CookieJar();
  const authorize = client.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const interaction = await jar.fetch(authorize.href);
  return jar.fetch(new URL(interaction.headers.get('location') ?? '', issuer).href, { headers });
}

describe('sign-in page', () => {
  it('lists the demo travelers with their passwords in demo mode', async () => {
    const identity = await start(await dataFolder());
    const response = await openSignInPage(identity.issuer);
    const page = await response.text();
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toContain('autocomplete="current-password"');
    for (const text of [
      'Alex Morgan',
      'Business traveler',
      'sam@wayfare.example',
      'jordan-demo',
      'Long booking history',
    ]) {
      expect(page).toContain(text);
    }
    expect(page).not.toContain('traveler1@wayfare.test');
  });

  it('follows the browser’s Accept-Language: Spanish for a browser that prefers it, else English', async () => {
    const identity = await start(await dataFolder());
    const pageIn = async (acceptLanguage: string): Promise<string> =>
      (await openSignInPage(identity.issuer, { 'accept-language': acceptLanguage })).text();
    const spanish = await pageIn('es-ES,es;q=0.9,en;q=0.8');
    expect(spanish).toContain('<html lang="es">');
    expect(spanish).toContain('<h1>Iniciar sesión</h1>');
    expect(spanish).toContain('<label for="password">Contraseña</label>');
    expect(spanish).toContain('Viajero de negocios');
    expect(spanish).not.toMatch(/\b(Sign in|Password|Cancel|Demo travelers|Business traveler)\b/);
    const english = await pageIn('fr-FR,fr;q=0.9,en;q=0.5,es;q=0.4');
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('<h1>Sign in</h1>');
    expect(await pageIn('de-DE')).toContain('<h1>Sign in</h1>');
  });

  it('hides the demo travelers outside demo mode', async () => {
    const identity = await start(await dataFolder(), { IDENTITY_DEMO_MODE: 'false' });
    const { page } = await signIn(identity.issuer);
    expect(page).toContain('<label for="password">Password</label>');
    expect(page).not.toContain('alex-demo');
    expect(page).not.toContain('Demo travelers');
  });

  it('refuses a token request without the PKCE verifier', async () => {
    const identity = await start(await dataFolder());
    const response = await fetch(`${identity.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('wayfare-bff:dev-bff-client-secret-change-me-0001').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: REDIRECT_URI,
      }).toString(),
    });
    expect(response.status).toBe(400);
  });
});
