import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureLocalCertificates } from '../upstream/travel-api/local-certificates.ts';
import { fleetNginxConfig } from './fleet-nginx-config.ts';

const root = path.resolve(import.meta.dirname, '..');
const example = await readFile(path.join(root, 'docs/scale-out-nginx.conf'), 'utf8');
const settings = {
  example,
  frontPort: 8443,
  bffPorts: [41001, 41002],
  certFile: '/run/fleet/tls/localhost.pem',
  keyFile: '/run/fleet/tls/localhost-key.pem',
  runDir: '/run/fleet/nginx',
};

describe('the fleet nginx configuration', () => {
  it('is the documented example with the local instances, front port and certificate', () => {
    const config = fleetNginxConfig(settings);
    expect(config).toContain('server 127.0.0.1:41001 max_fails=3 fail_timeout=10s;');
    expect(config).toContain('server 127.0.0.1:41002 max_fails=3 fail_timeout=10s;');
    expect(config).not.toMatch(/10\.0\.1\.\d+/);
    expect(config).toMatch(/listen 127\.0\.0\.1:8443 ssl http2;/);
    expect(config).toContain('ssl_certificate     /run/fleet/tls/localhost.pem;');
    expect(config).toContain('ssl_certificate_key /run/fleet/tls/localhost-key.pem;');
    expect(config).toContain('pid /run/fleet/nginx/nginx.pid;');
    // The example's SSE rules come through unchanged.
    expect(config).toContain(
      'location ~ ^/api/(notifications/stream|stays/search|stays/priced-search|stays/fares)$',
    );
    expect(config).toContain('proxy_buffering off;');
  });

  it('says which line of the example it no longer finds', () => {
    expect(() =>
      fleetNginxConfig({ ...settings, example: example.replace('listen 443', 'listen 8080') }),
    ).toThrow(/expected one `listen 443 ssl http2;`, found 0/);
  });

  const nginx = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((candidate) => existsSync(candidate));
  it.runIf(nginx !== undefined)('passes nginx -t', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-nginx-'));
    try {
      const tls = await ensureLocalCertificates(path.join(dir, 'tls'), 'Wayfare test');
      const config = path.join(dir, 'nginx.conf');
      await writeFile(config, fleetNginxConfig({ ...settings, ...tls, runDir: dir }));
      const result = spawnSync(nginx ?? 'nginx', ['-t', '-p', dir, '-c', config, '-e', 'stderr'], {
        encoding: 'utf8',
      });
      expect(result.stderr).toContain('test is successful');
      expect(result.status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
