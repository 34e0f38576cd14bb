import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** User plus system CPU seconds a process has used so far, from /proc (Linux). */
function cpuSecondsOf(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

describe('npm run start:travel-api', () => {
  it('starts in under 3 seconds (of CPU) with no configuration and closes gracefully on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'travel-api-start-'));
    const started = performance.now();
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
      // CPU time rather than wall time: on a machine shared by many busy processes, wall time measures the
      // machine's load, while the CPU seconds spent starting are what an idle machine would wait.
      expect(cpuSecondsOf(child.pid)).toBeLessThan(3);
      expect(performance.now() - started).toBeLessThan(15_000);
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
