#!/usr/bin/env node
// Runs an npm script under Node >= 22.22. Written to run on old Node too: when the running Node is
// older, it fetches a project-local Node 24 from the npm registry into .tools/ and re-runs under it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MINIMUM = [22, 22];
const TASKS = {
  start: ['build', 'start:stack'],
  dev: ['dev:stack'],
  test: ['test:all'],
};

function isCurrent(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

function platformPackage() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!os || !arch)
    throw new Error(`No Node package for ${process.platform}/${process.arch}; install Node >= 22.22.`);
  return `node-${os}-${arch}`;
}

function localNodeBin() {
  const pkg = platformPackage();
  const dir = path.join(root, '.tools', 'node_modules', pkg);
  return { pkg, bin: process.platform === 'win32' ? dir : path.join(dir, 'bin') };
}

function run(command, args, env) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env,
    shell: process.platform === 'win32',
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function environmentWithCurrentNode() {
  if (isCurrent(process.version)) return process.env;
  const { pkg, bin } = localNodeBin();
  const node = path.join(bin, process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(node)) {
    console.log(
      `Node ${process.version} is older than ${MINIMUM.join('.')}: fetching ${pkg}@24 into .tools/ (one time).`,
    );
    const status = run(
      'npm',
      ['install', '--silent', '--no-save', '--no-audit', '--no-fund', '--prefix', '.tools', `${pkg}@24`],
      process.env,
    );
    if (status !== 0 || !existsSync(node)) {
      console.error(
        `Could not fetch ${pkg}@24 from the npm registry; install Node >= ${MINIMUM.join('.')} and retry.`,
      );
      process.exit(1);
    }
  } else {
    console.log(
      `Node ${process.version} is older than ${MINIMUM.join('.')}: using the project-local Node 24 in .tools/.`,
    );
  }
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}

/**
 * A fresh clone's first `npm start` or `npm test` installs the locked dependencies itself, under the Node it
 * then runs with, so npm checks their engines against a Node they support and prints no warnings.
 */
function installDependenciesOnce(env) {
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  console.log('Installing the dependencies (npm ci, one time).');
  const status = run('npm', ['ci', '--no-audit', '--no-fund'], env);
  if (status !== 0) process.exit(status);
}

const [task, ...rest] = process.argv.slice(2);
if (task === 'run' && rest.length > 0) {
  // One project script under the current Node, e.g. `node scripts/launch.mjs run bench/run.ts sse`: what
  // every documented command goes through, so none of them crashes on an older Node.
  process.exit(run('node', rest, environmentWithCurrentNode()));
}
if (task === 'exec' && rest.length > 0) {
  // Any command under the current Node, e.g. `node scripts/launch.mjs exec npm ci` in .ci/run.
  process.exit(run(rest[0], rest.slice(1), environmentWithCurrentNode()));
}
const scripts = TASKS[task];
if (!scripts) {
  console.error(
    `usage: node scripts/launch.mjs <${Object.keys(TASKS).join('|')}> | run <script.ts> [args...] | exec <command...>`,
  );
  process.exit(2);
}
const env = environmentWithCurrentNode();
installDependenciesOnce(env);
for (const script of scripts) {
  const status = run('npm', ['run', '--silent', script], env);
  if (status !== 0) process.exit(status);
}
