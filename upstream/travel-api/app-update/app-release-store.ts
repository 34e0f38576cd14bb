import type { DatabaseSync } from 'node:sqlite';
import { compareVersions, type AppRelease, type UpdateCheck } from '#shared/upstream/app-update.ts';
import { applyMigrations } from '../db.ts';

interface ReleaseRow {
  latest_version: string;
  minimum_version: string;
  release_notes: string | null;
  released_at: string;
}

/** The client application's current release; announced through the admin API, kept across restarts. */
export class AppReleaseStore {
  readonly #db: DatabaseSync;

  constructor(
    db: DatabaseSync,
    initial: { latestVersion: string; minimumVersion: string },
    now = new Date(),
  ) {
    this.#db = db;
    applyMigrations(db, [
      {
        name: 'core-004-app-release',
        sql: `CREATE TABLE app_release (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          latest_version TEXT NOT NULL,
          minimum_version TEXT NOT NULL,
          release_notes TEXT,
          released_at TEXT NOT NULL
        ) STRICT;`,
      },
    ]);
    db.prepare(
      `INSERT INTO app_release (id, latest_version, minimum_version, release_notes, released_at)
       VALUES (1, ?, ?, NULL, ?) ON CONFLICT (id) DO NOTHING`,
    ).run(initial.latestVersion, initial.minimumVersion, now.toISOString());
  }

  check(currentVersion: string | undefined): UpdateCheck {
    const row = this.#db.prepare('SELECT * FROM app_release WHERE id = 1').get() as unknown as ReleaseRow;
    return {
      latestVersion: row.latest_version,
      minimumVersion: row.minimum_version,
      updateAvailable:
        currentVersion !== undefined && compareVersions(currentVersion, row.latest_version) < 0,
      updateRequired:
        currentVersion !== undefined && compareVersions(currentVersion, row.minimum_version) < 0,
      releaseNotes: row.release_notes,
      releasedAt: row.released_at,
    };
  }

  announce(release: AppRelease, now = new Date()): UpdateCheck {
    const current = this.check(undefined);
    this.#db
      .prepare(
        `UPDATE app_release SET latest_version = ?, minimum_version = ?, release_notes = ?, released_at = ?
         WHERE id = 1`,
      )
      .run(
        release.latestVersion,
        release.minimumVersion ?? current.minimumVersion,
        release.releaseNotes ?? null,
        now.toISOString(),
      );
    return this.check(undefined);
  }
}
