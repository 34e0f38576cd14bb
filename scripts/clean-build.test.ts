import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The environment of a shell running `npm run build`: the test runner's own variables (NODE_ENV=test) left out. */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
  );
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** `vite build` as `npm run build` runs it, into a folder of its own: its exit code and everything it printed. */
async function viteBuild(outDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: root, env: buildEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output };
}

describe('npm run build', () => {
  it('builds the SPA and its service worker without a warning', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'wayfare-clean-build-'));
    dirs.push(outDir);
    const { code, output } = await viteBuild(outDir);
    expect(code, output).toBe(0);
    expect(output).toMatch(/built in/);
    expect(output.split('\n').filter((line) => /\bwarn(ing)?\b/i.test(line))).toEqual([]);
  }, 120_000);
});
