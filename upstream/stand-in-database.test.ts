import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './travel-api/db.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wayfare-private-db-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const modeOf = async (file: string) => ((await stat(file)).mode & 0o777).toString(8);

describe("the travel API's database", () => {
  it('is created readable by its own user only, with its -wal and -shm files, in a folder only it opens', async () => {
    const dataDir = path.join(root, 'travel-api');
    const db = openDatabase(dataDir);
    try {
      db.exec('CREATE TABLE probe (value TEXT); INSERT INTO probe VALUES (1);');
      expect(await modeOf(dataDir)).toBe('700');
      for (const name of ['travel-api.sqlite', 'travel-api.sqlite-wal', 'travel-api.sqlite-shm']) {
        expect(await modeOf(path.join(dataDir, name)), name).toBe('600');
      }
    } finally {
      db.close();
    }
  });

  it('narrows the files an older version left readable by others', async () => {
    const dataDir = path.join(root, 'travel-api');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    for (const name of ['travel-api.sqlite', 'travel-api.sqlite-wal', 'travel-api.sqlite-shm']) {
      await writeFile(path.join(dataDir, name), '', { mode: 0o644 });
      await chmod(path.join(dataDir, name), 0o644);
    }
    const db = openDatabase(dataDir);
    try {
      for (const name of ['travel-api.sqlite', 'travel-api.sqlite-wal', 'travel-api.sqlite-shm']) {
        expect(await modeOf(path.join(dataDir, name)), name).toBe('600');
      }
    } finally {
      db.close();
    }
  });
});
