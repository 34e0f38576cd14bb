import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webPush from 'web-push';
import { z } from 'zod';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VapidKeysSchema = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });

/**
 * The VAPID key pair: from the configuration when set; otherwise generated once and kept in the data
 * folder (readable by the owner only), so subscriptions made against the public key stay valid across
 * restarts.
 */
export function loadVapidKeys(input: {
  publicKey: string | undefined;
  privateKey: string | undefined;
  dataDir: string;
}): VapidKeys {
  if (input.publicKey !== undefined && input.privateKey !== undefined) {
    return { publicKey: input.publicKey, privateKey: input.privateKey };
  }
  if (input.publicKey !== undefined || input.privateKey !== undefined) {
    throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.');
  }
  const file = path.join(input.dataDir, 'vapid-keys.json');
  if (existsSync(file)) return VapidKeysSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const keys = webPush.generateVAPIDKeys();
  mkdirSync(input.dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  return keys;
}
