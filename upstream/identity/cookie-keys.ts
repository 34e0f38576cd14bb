import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const CookieKeysSchema = z.object({ keys: z.array(z.string().min(32)).min(1) });

/** Keys that sign the identity platform's cookies, kept under the data folder so sessions survive a restart. */
export function loadCookieKeys(dataDir: string): string[] {
  const file = path.join(dataDir, 'cookie-keys.json');
  try {
    return CookieKeysSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = [randomBytes(32).toString('base64url')];
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
