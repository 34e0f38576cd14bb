import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * A stand-in's SQLite database that only the server's own user can read, in WAL mode. The data folder is
 * created 0700 and the file 0600 before SQLite opens it; SQLite gives the -wal and -shm files it creates
 * the database file's mode. A database or -wal / -shm file an older version left readable by others is
 * narrowed first (a folder that exists is left as it is: it may be one the operator chose).
 */
export function openStandInDatabase(dataDir: string, fileName: string): DatabaseSync {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, fileName);
  closeSync(openSync(file, 'a', 0o600));
  for (const own of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(own)) chmodSync(own, 0o600);
  }
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  return db;
}
