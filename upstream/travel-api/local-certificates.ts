import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

/** The files of a local certificate authority and of the server certificate it signed. */
export interface LocalCertificates {
  /** The authority's certificate: what a client is told to trust (PEM). */
  caFile: string;
  /** The server's certificate (PEM), valid for localhost, 127.0.0.1 and ::1. */
  certFile: string;
  /** The server's private key (PEM, unencrypted, readable by its owner only). */
  keyFile: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Certificates are made for a year and made again when less than a week of it is left. */
const LIFETIME_DAYS = 365;
const RENEW_BEFORE_MS = 7 * DAY_MS;
const LOOPBACK_NAMES = [
  { type: 2 as const, value: 'localhost' },
  { type: 7 as const, ip: '127.0.0.1' },
  { type: 7 as const, ip: '::1' },
];

function filesIn(dir: string): LocalCertificates {
  return {
    caFile: path.join(dir, 'ca.pem'),
    certFile: path.join(dir, 'localhost.pem'),
    keyFile: path.join(dir, 'localhost-key.pem'),
  };
}

/** Whether the files hold a server certificate the authority signed, with a week of validity left. */
async function stillGood(files: LocalCertificates): Promise<boolean> {
  try {
    const [caPem, certPem, keyPem] = await Promise.all([
      readFile(files.caFile, 'utf8'),
      readFile(files.certFile, 'utf8'),
      readFile(files.keyFile, 'utf8'),
    ]);
    const ca = new X509Certificate(caPem);
    const cert = new X509Certificate(certPem);
    const leftMs = Math.min(Date.parse(ca.validTo), Date.parse(cert.validTo)) - Date.now();
    return keyPem.includes('PRIVATE KEY') && cert.verify(ca.publicKey) && leftMs > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode });
  await rename(temporary, file);
}

/**
 * A certificate authority of this machine and a server certificate for loopback it signed, in `dir`:
 * kept while valid, made afresh (EC P-256, SHA-256, one year) when missing, broken or about to expire.
 * Clients trust `caFile`; nobody turns certificate verification off.
 */
export async function ensureLocalCertificates(
  dir: string,
  authorityName: string,
): Promise<LocalCertificates> {
  const files = filesIn(dir);
  if (await stillGood(files)) return files;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + LIFETIME_DAYS * DAY_MS);
  const ca = await generate([{ name: 'commonName', value: `${authorityName} local authority` }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: LOOPBACK_NAMES },
    ],
  });
  // The key first and the authority last: a reader that finds the authority finds a complete set.
  await writeAtomically(files.keyFile, server.private, 0o600);
  await writeAtomically(files.certFile, server.cert, 0o644);
  await writeAtomically(files.caFile, ca.cert, 0o644);
  return files;
}
