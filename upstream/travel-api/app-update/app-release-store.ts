import type { DatabaseSync } from 'node:sqlite';
import { compareVersions, type AppRelease, type UpdateCheck } from '#shared/upstream/app-update.ts';
import { applyMigrations } from '../db.ts';

interface ReleaseRow {
  latest_version: string;
  minimum_version: string;
  release_notes: string | null;
  released_at: string;
}

type PreviewRow = Omit<ReleaseRow, 'minimum_version'>;

/**
 * The client application's current release; announced through the admin API, kept across restarts. A
 * newer version can also be announced to one traveler first (a staged release, and the demo's lever):
 * that traveler's update checks report it, everyone else's the release of all.
 */
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
      {
        name: 'core-005-app-release-previews',
        sql: `CREATE TABLE app_release_previews (
          traveler_id TEXT PRIMARY KEY,
          latest_version TEXT NOT NULL,
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

  /** What an update check of this client finds: for a traveler, a newer version announced to them first. */
  check(currentVersion: string | undefined, travelerId?: string): UpdateCheck {
    const release = this.#db.prepare('SELECT * FROM app_release WHERE id = 1').get() as unknown as ReleaseRow;
    const preview =
      travelerId === undefined
        ? undefined
        : (this.#db
            .prepare(
              'SELECT latest_version, release_notes, released_at FROM app_release_previews WHERE traveler_id = ?',
            )
            .get(travelerId) as PreviewRow | undefined);
    const row =
      preview && compareVersions(preview.latest_version, release.latest_version) > 0
        ? { ...release, ...preview }
        : release;
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

  /** Announces a version to one traveler before everyone (replacing what was announced to them before). */
  announceTo(travelerId: string, release: AppRelease, now = new Date()): UpdateCheck {
    this.#db
      .prepare(
        `INSERT INTO app_release_previews (traveler_id, latest_version, release_notes, released_at)
        VALUES (?, ?, ?, ?)
        ON CONFLICT (traveler_id) DO UPDATE SET latest_version = excluded.latest_version,
          release_notes = excluded.release_notes, released_at = excluded.released_at`,
      )
      .run(travelerId, release.latestVersion, release.releaseNotes ?? null, now.toISOString());
    return this.check(undefined, travelerId);
  }

  /** Takes back what was announced to one traveler alone: they see the release of all again. */
  withdrawFrom(travelerId: string): UpdateCheck {
    this.#db.prepare('DELETE FROM app_release_previews WHERE traveler_id = ?').run(travelerId);
    return this.check(undefined);
  }
}
