import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run start:travel-api', () => {
  it('starts with no configuration but a free port and a data folder, answers, and closes gracefully on SIGTERM', async () => {
    // Start-up time is measured by `npm run bench -- startup`, not here.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-start-'));
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'server.ts')], {
      env: { PATH: process.env.PATH ?? '', TRAVEL_API_PORT: '0', TRAVEL_API_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (text: string) => {
          output += text;
          const match = /Server listening at (http:\/\/[^"]+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const unsigned = await fetch(`${address}/v1/app/update-check`);
      expect(unsigned.status).toBe(401);
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
