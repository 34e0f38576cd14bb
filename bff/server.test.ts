import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('bff/server.ts with a bad setting', () => {
  it('prints the list of every bad variable, no stack, and exits 2', () => {
    const result = spawnSync(process.execPath, [path.join(import.meta.dirname, 'server.ts')], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, PORT: 'not-a-port', SSE_HEARTBEAT_MS: '-5', NODE_ENV: 'test' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Invalid BFF configuration:');
    expect(result.stderr).toMatch(/PORT: /);
    expect(result.stderr).toMatch(/SSE_HEARTBEAT_MS: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('ConfigError');
  });
});
