import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * An SQLite database in the data folder that only the server's own user can read: the folder is created
 * 0700 and the file 0600 before SQLite opens it (its -wal and -shm files take the file's mode), and a file
 * left by an older version with wider permissions is narrowed.
 */
export function openPrivateDatabase(dataDir: string, fileName: string): DatabaseSync {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, fileName);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  return new DatabaseSync(file);
}
