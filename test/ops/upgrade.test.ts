import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { migrateToLatest, openDatabase } from '../../src/server/db/open';
import { DatabaseTooNew, UpgradeFailed, upgradeDatabase } from '../../src/server/db/upgrade';
import { lockDataDir } from '../../src/server/db/data-dir';
import { memoryLogger } from '../../src/server/kernel/log';
import { writeBackup } from '../../src/server/ops/backup';
import { EXIT_NEEDS_OPERATOR } from '../../src/server/serve';
import { cliRun } from '../support/cli';
import { startTestServer, stopTestServer, tempDataDir } from '../support/server';

// Upgrades of a data folder: a newer build on an earlier release's database backs it up
// and migrates; a migration that fails puts the folder back as it was; an older build on
// a newer database refuses to run. "An earlier release" is made here by running only the
// first migrations of this build, as that release had them.

const names = Object.keys(migrations);
const EARLIER = Math.floor(names.length / 2);
const earlier = (): Record<string, Migration> =>
  Object.fromEntries(names.slice(0, EARLIER).map((n) => [n, migrations[n]]));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder as the earlier release left it, with one customer in it. */
async function earlierFolder(): Promise<string> {
  const dir = tempDataDir('nodekeep-upgrade-');
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
  await migrateToLatest(db, earlier());
  await sql`INSERT INTO users (username, username_key, email, email_key, password_hash, room_id, qr_key, created_at) VALUES ('old_timer', 'old_timer', 'old@example.test', 'old@example.test', 'x', 'r1', 'q1', 1)`.execute(
    db,
  );
  await db.destroy();
  return dir;
}

const migrationsIn = (dir: string) => {
  const db = new SQLite(path.join(dir, 'nodekeep.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
};

describe('upgrading a data folder', () => {
  it("starts a newer build on an earlier release's folder: backed up first, then migrated, nothing lost", async () => {
    const dir = await earlierFolder();
    expect(migrationsIn(dir)).toHaveLength(EARLIER);
    const s = await startTestServer({}, { dataDir: dir });
    try {
      expect(migrationsIn(dir)).toEqual([...names].sort());
      const user = await s.deps.db
        .selectFrom('users')
        .select('email')
        .where('username', '=', 'old_timer')
        .executeTakeFirst();
      expect(user?.email).toBe('old@example.test');
      const backups = fs.readdirSync(path.join(dir, 'backups')).filter((f) => f.startsWith('nodekeep-before-upgrade-'));
      expect(backups).toHaveLength(1);
    } finally {
      await stopTestServer(s).catch(() => {});
    }
  });

  it('leaves the folder as it was when a migration fails, and says so', async () => {
    const dir = await earlierFolder();
    const before = migrationsIn(dir);
    const boom: Migration = {
      async up(db) {
        await sql`CREATE TABLE half_done (x INTEGER)`.execute(db);
        throw new Error('the disk said no');
      },
    };
    const list = { ...migrations, '2099-12-31T2359-boom': boom };
    const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
    const err = await upgradeDatabase(
      db,
      { dataDir: dir, dbFile: path.join(dir, 'nodekeep.sqlite'), backupDir: path.join(dir, 'backups') },
      memoryLogger(),
      writeBackup,
      list,
    ).catch((e: unknown) => e);
    await db.destroy();
    expect(err).toBeInstanceOf(UpgradeFailed);
    expect((err as Error).message).toMatch(
      /^Upgrading the database failed \(migration 2099-12-31T2359-boom failed: the disk said no\)\. Nothing was changed: the database is as it was before the upgrade\. The backup taken just before is .*nodekeep-before-upgrade-.*\.tar\.gz\. Run the previous Nodekeep version/,
    );
    // As it was: the earlier migrations only, no trace of the failed ones, the customer there.
    expect(migrationsIn(dir)).toEqual(before);
    const raw = new SQLite(path.join(dir, 'nodekeep.sqlite'), { readonly: true });
    try {
      expect(raw.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
      expect(raw.prepare("SELECT email FROM users WHERE username = 'old_timer'").get()).toEqual({
        email: 'old@example.test',
      });
      expect(raw.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      raw.close();
    }
  });

  it('waits for another process writing, and when it waits too long says the next start tries again (not a failed upgrade)', async () => {
    const dir = await earlierFolder();
    const before = migrationsIn(dir);
    // Another process's write transaction, held past the busy timeout.
    const other = new SQLite(path.join(dir, 'nodekeep.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
    try {
      const err = await upgradeDatabase(
        db,
        { dataDir: dir, dbFile: path.join(dir, 'nodekeep.sqlite'), backupDir: path.join(dir, 'backups') },
        memoryLogger(),
        writeBackup,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(UpgradeFailed);
      expect((err as Error).message).toMatch(
        /^Upgrading the database waited too long for another process writing to it \(.*database is locked\)\. Nothing was changed; the next start tries again\.$/,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await db.destroy();
    }
    expect(migrationsIn(dir)).toEqual(before);
  }, 30_000);

  it('runs the pending migrations in one transaction: a failure leaves none of them behind', async () => {
    const dir = await earlierFolder();
    const before = migrationsIn(dir);
    const schema = () => {
      const raw = new SQLite(path.join(dir, 'nodekeep.sqlite'), { readonly: true });
      try {
        return raw.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
      } finally {
        raw.close();
      }
    };
    const schemaBefore = schema();
    const boom: Migration = {
      async up() {
        throw new Error('stopped halfway');
      },
    };
    // Every migration the earlier release lacks runs first (tables made and rebuilt, rows moved), then one fails.
    const db = openDatabase(path.join(dir, 'nodekeep.sqlite'));
    try {
      await expect(migrateToLatest(db, { ...migrations, '2099-12-31T2359-boom': boom })).rejects.toThrow(
        /migration 2099-12-31T2359-boom failed: stopped halfway/,
      );
    } finally {
      await db.destroy();
    }
    expect(migrationsIn(dir)).toEqual(before);
    expect(schema()).toEqual(schemaBefore);
  });

  it('upgrades from the command line as a start would, and refuses while a server runs on the folder', async () => {
    const dir = await earlierFolder();
    const cli = (...argv: string[]) => cliRun(argv, { DATA_DIR: dir });
    // A server holds the folder (its lock): the command changes nothing and says what to do.
    const server = lockDataDir(dir);
    try {
      const refused = await cli('users', 'list');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        new RegExp(
          `^error: Another Nodekeep server \\(pid ${process.pid}\\) is already running on the data folder .*\\. Its database is from an earlier Nodekeep than this command \\(\\d+ migrations to run\\)\\. Restart the server with this version first`,
        ),
      );
      expect(migrationsIn(dir)).toHaveLength(EARLIER);
      expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    } finally {
      server.release();
    }
    // Another command at work on the folder (an upgrade, a restore): wait for it. A server
    // starting then says the same of it, not that a server runs.
    const command = lockDataDir(dir, 'command');
    try {
      const waiting = await cli('users', 'list');
      expect(waiting.code).toBe(1);
      expect(waiting.err).toBe(
        `error: A Nodekeep command (pid ${process.pid}) is at work on the data folder ${dir} (an upgrade, a restore or fleet stop-local). Wait for it to finish, then run the command again.\n`,
      );
      await expect(startTestServer({}, { dataDir: dir })).rejects.toThrow(
        `A Nodekeep command (pid ${process.pid}) is at work on the data folder ${dir} (an upgrade, a restore or fleet stop-local). Wait for it to finish, then try again.`,
      );
      expect(migrationsIn(dir)).toHaveLength(EARLIER);
    } finally {
      command.release();
    }
    // No server: backed up first, upgraded, then the command runs.
    const ran = await cli('users', 'list');
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('old_timer');
    expect(ran.err).toMatch(
      /^The database was from an earlier Nodekeep: backed up to .*nodekeep-before-upgrade-.*\.tar\.gz, then upgraded \(\d+ migrations\)\.\n$/,
    );
    expect(migrationsIn(dir)).toEqual([...names].sort());
    expect(
      fs.readdirSync(path.join(dir, 'backups')).filter((f) => f.startsWith('nodekeep-before-upgrade-')),
    ).toHaveLength(1);
    // Upgraded once: the next command says nothing of it.
    expect((await cli('users', 'list')).err).toBe('');
  });

  it("doctor on an earlier release's folder reports the migrations to run and changes nothing", async () => {
    const dir = await earlierFolder();
    const file = path.join(dir, 'nodekeep.sqlite');
    const size = fs.statSync(file).size;
    const env = { DATA_DIR: dir, HOST_DISK_MIN_FREE_GB: '0.1' };
    const r = await cliRun(['doctor'], env);
    expect(r.code).toBe(1);
    expect(r.out.split('\n').find((l) => l.includes('database:'))).toBe(
      `FAIL  database: from an earlier Nodekeep: ${names.length - EARLIER} migrations to run (doctor changes nothing) — restart the server with this version (it backs the data up, then upgrades it), then run doctor again for the hosts and deposit daemons`,
    );
    expect(r.err).not.toMatch(/backed up/);
    expect(migrationsIn(dir)).toHaveLength(EARLIER);
    expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    expect(fs.statSync(file).size).toBe(size);
    // Once another command upgraded it, the same line passes.
    expect((await cliRun(['users', 'list'], env)).code).toBe(0);
    expect((await cliRun(['doctor'], env)).out).toContain(`ok    database: up to date (${names.length} migrations)`);
  });

  it('doctor on a folder made ready for the first start says the server makes the database, and makes none', async () => {
    const dir = tempDataDir('nodekeep-fresh-');
    dirs.push(dir);
    const r = await cliRun(['doctor'], { DATA_DIR: dir, HOST_DISK_MIN_FREE_GB: '0.1' });
    expect(r.out.split('\n').find((l) => l.includes('database:'))).toBe(
      'warn  database: none yet: the server makes it on its first start — start the server, then run doctor again for the hosts and deposit daemons',
    );
    expect(r.err).not.toMatch(/backed up|upgraded/);
    const raw = new SQLite(path.join(dir, 'nodekeep.sqlite'), { readonly: true });
    try {
      expect(raw.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
  });

  it('refuses to run an older build on a newer database, server and CLI alike', async () => {
    const dir = await earlierFolder();
    const raw = new SQLite(path.join(dir, 'nodekeep.sqlite'));
    raw
      .prepare(
        "INSERT INTO kysely_migration (name, timestamp) VALUES ('2099-01-01T0000-from-the-future', '2099-01-01')",
      )
      .run();
    raw.close();
    const size = fs.statSync(path.join(dir, 'nodekeep.sqlite')).size;
    await expect(startTestServer({}, { dataDir: dir })).rejects.toSatisfy(
      (e) =>
        e instanceof DatabaseTooNew &&
        /was last used by a newer Nodekeep: its database has migrations this build does not know \(2099-01-01T0000-from-the-future\)/.test(
          (e as Error).message,
        ),
    );
    const refused = await cliRun(['users', 'list'], { DATA_DIR: dir });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/newer Nodekeep/);
    // As a process: an exit code the systemd unit does not restart on (deploy/nodekeep.service).
    const exited = spawnSync(process.execPath, ['dist/server/main.js'], {
      env: { PATH: process.env.PATH, DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(exited.status).toBe(EXIT_NEEDS_OPERATOR);
    expect(exited.stderr).toMatch(/^Nodekeep failed to start: The data folder .* was last used by a newer Nodekeep/);
    expect(fs.readFileSync('deploy/nodekeep.service', 'utf8')).toMatch(
      new RegExp(`^RestartPreventExitStatus=2 ${EXIT_NEEDS_OPERATOR}$`, 'm'),
    );
    // Nothing was migrated or backed up.
    expect(migrationsIn(dir)).toHaveLength(EARLIER + 1);
    expect(fs.statSync(path.join(dir, 'nodekeep.sqlite')).size).toBe(size);
    expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
  });
});
