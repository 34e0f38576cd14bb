import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLocalCertificates } from './local-certificates.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-certificates-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ensureLocalCertificates', () => {
  it('makes an authority and a loopback server certificate it signed', async () => {
    const files = await ensureLocalCertificates(dir, 'Wayfare test');
    const ca = new X509Certificate(await readFile(files.caFile));
    const server = new X509Certificate(await readFile(files.certFile));
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
    expect(server.checkHost('wayfare.example')).toBeUndefined();
    expect(Date.parse(server.validTo) - Date.now()).toBeGreaterThan(300 * 86_400_000);
    expect(await readFile(files.keyFile, 'utf8')).toContain('PRIVATE KEY');
  });

  it('keeps valid certificates across restarts, and remakes a broken set', async () => {
    const first = await ensureLocalCertificates(dir, 'Wayfare test');
    const caBefore = await readFile(first.caFile, 'utf8');
    await ensureLocalCertificates(dir, 'Wayfare test');
    expect(await readFile(first.caFile, 'utf8')).toBe(caBefore);

    await writeFile(first.certFile, 'not a certificate');
    const remade = await ensureLocalCertificates(dir, 'Wayfare test');
    const ca = new X509Certificate(await readFile(remade.caFile));
    expect(new X509Certificate(await readFile(remade.certFile)).verify(ca.publicKey)).toBe(true);
  });
});
