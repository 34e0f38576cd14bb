import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';

const StoredKeySchema = z.object({
  jwk: z.looseObject({ kty: z.literal('RSA'), kid: z.string(), d: z.string() }),
  createdAt: z.iso.datetime(),
  /** Set when a newer key took over signing; the key stays published until its tokens expire. */
  retiredAt: z.iso.datetime().optional(),
});
const KeyFileSchema = z.object({ keys: z.array(StoredKeySchema).min(1) });
type StoredKey = z.infer<typeof StoredKeySchema>;
type KeyFile = z.infer<typeof KeyFileSchema>;

export const SIGNING_KEYS_FILE = 'signing-keys.json';

export function signingKeysPath(dataDir: string): string {
  return path.join(dataDir, SIGNING_KEYS_FILE);
}

async function newKey(now: Date): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    jwk: { ...jwk, kty: 'RSA', kid: randomUUID(), d: jwk.d ?? '', alg: 'RS256', use: 'sig' },
    createdAt: now.toISOString(),
  };
}

function readKeyFile(file: string): KeyFile | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return KeyFileSchema.parse(JSON.parse(raw));
}

function writeKeyFile(file: string, contents: KeyFile): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** The active key first (oidc-provider signs with the first matching key), then the retired ones. */
function toJwks(contents: KeyFile): { keys: JWK[] } {
  const active = contents.keys.filter((key) => !key.retiredAt);
  const retired = contents.keys.filter((key) => key.retiredAt);
  return { keys: [...active, ...retired].map((key) => key.jwk as JWK) };
}

/**
 * The private JWKS for oidc-provider, generated with jose on first start and kept under the data folder
 * so that a restart keeps every issued token verifiable.
 */
export async function loadSigningKeys(dataDir: string, now = new Date()): Promise<{ keys: JWK[] }> {
  const file = signingKeysPath(dataDir);
  const existing = readKeyFile(file);
  if (existing) return toJwks(existing);
  const created: KeyFile = { keys: [await newKey(now)] };
  writeKeyFile(file, created);
  return toJwks(created);
}

export interface RotationResult {
  activeKid: string;
  publishedKids: string[];
  removedKids: string[];
}

/**
 * Generates a new signing key and retires the current one. Retired keys stay published for
 * `retentionSeconds` (the longest life of a token they signed) and are removed by a later rotation.
 */
export async function rotateSigningKeys(
  dataDir: string,
  retentionSeconds: number,
  now = new Date(),
): Promise<RotationResult> {
  const file = signingKeysPath(dataDir);
  const existing = readKeyFile(file) ?? { keys: [] };
  const cutoff = now.getTime() - retentionSeconds * 1000;
  const kept: StoredKey[] = [];
  const removedKids: string[] = [];
  for (const key of existing.keys) {
    const retiredAt = key.retiredAt ?? now.toISOString();
    if (Date.parse(retiredAt) <= cutoff) removedKids.push(key.jwk.kid);
    else kept.push({ ...key, retiredAt });
  }
  const active = await newKey(now);
  writeKeyFile(file, { keys: [active, ...kept] });
  return {
    activeKid: active.jwk.kid,
    publishedKids: [active.jwk.kid, ...kept.map((key) => key.jwk.kid)],
    removedKids,
  };
}
