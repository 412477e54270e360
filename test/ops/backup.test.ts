import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { runCli } from '../../src/server/cli/main';
import { connectionOf } from '../../src/server/db/open';
import { sweepLeftovers, writeBackup } from '../../src/server/ops/backup';
import { readTar, tarBuffer, type TarEntry } from '../../src/server/kernel/tar';
import { cliRun } from '../support/cli';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { loopback, requestFrom } from '../support/from-ip';
import { newUserInput } from '../support/users';
import { scaled, scaleFileTimeouts } from '../support/machine-speed';

// Starts real processes: the budgets scale with how loaded the machine is now.
scaleFileTimeouts();

// Backups and restore of a data folder, with the real server writing: `backup` in a
// process of its own while registrations keep arriving over HTTP, then `restore` into a
// new folder and a server started on it. Every registration acknowledged before the
// backup began is there.

const dataDir = tempDataDir('nodekeep-backup-');
const restored = tempDataDir('nodekeep-restored-');
const archive = path.join(tempDataDir('nodekeep-archives-'), 'b.tar.gz');
let s: TestServer;

/** The CLI in a process of its own, as an operator runs it. */
function cliProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/server/command-line.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** A registration from an address of its own (per-address limits), acknowledged when it answers 200. */
async function register(i: number): Promise<string | null> {
  const input = newUserInput(`bk${i}_`);
  const r = await requestFrom(loopback(i, 30_000), `${s.url}/public_api/register`, { body: input });
  return r.status === 200 ? input.username : null;
}

beforeAll(async () => {
  s = await startTestServer({ BACKUP_KEEP_DAYS: '14' }, { dataDir });
});
afterAll(async () => {
  if (s) await stopTestServer(s);
  for (const d of [restored, path.dirname(archive)]) fs.rmSync(d, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('makes a daily backup at start into BACKUP_DIR', async () => {
    const dir = path.join(dataDir, 'backups');
    await expect
      .poll(() => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.tar.gz')).length : 0), {
        timeout: scaled(10_000),
      })
      .toBe(1);
  });

  it('backs up under write load; the restored folder starts and holds every write acknowledged before the backup', async () => {
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const writer = (async () => {
      while (!stop) {
        const name = await register(n++);
        if (name) acknowledged.push(name);
      }
    })();
    await expect.poll(() => acknowledged.length, { timeout: scaled(20_000) }).toBeGreaterThan(20);
    const before = [...acknowledged];
    const b = await cliProcess(['backup', archive], { DATA_DIR: dataDir });
    stop = true;
    await writer;
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/^backup written: .*b\.tar\.gz \(\d+\.\d MiB\)/);
    expect(acknowledged.length).toBeGreaterThan(before.length); // writes went on during the backup

    const r = await cliProcess(['restore', archive], { DATA_DIR: restored });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^restored .* \(\d+ migrations\)\. Start the server\./);
    // The key came along: sealed secrets open in the restored folder.
    expect(fs.readFileSync(path.join(restored, 'secrets.key'))).toEqual(
      fs.readFileSync(path.join(dataDir, 'secrets.key')),
    );
    const t = await startTestServer({}, { dataDir: restored });
    try {
      const users = new Set((await t.deps.db.selectFrom('users').select('username').execute()).map((u) => u.username));
      for (const name of before) expect(users.has(name), name).toBe(true);
      const ok = await fetch(`${t.url}/readyz`);
      expect(ok.status).toBe(200);
    } finally {
      await stopTestServer(t);
    }
  });

  it('refuses to restore while a server holds the folder, and changes nothing', async () => {
    const size = fs.statSync(path.join(dataDir, 'nodekeep.sqlite')).size;
    const r = await cliRun(['restore', archive], { DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: Another Nodekeep server \(pid \d+\) is already running on the data folder .*\. Stop it before restoring \(systemctl stop nodekeep\): a restore replaces the database it is using\.\n$/,
    );
    expect(fs.statSync(path.join(dataDir, 'nodekeep.sqlite')).size).toBe(size);
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith('before-restore-'))).toBe(false);
  });

  it('refuses an archive made by a newer Nodekeep, a damaged one and a foreign file, replacing nothing', async () => {
    const target = tempDataDir('nodekeep-target-');
    try {
      // A folder with a database of its own, which a refused restore must leave alone.
      expect(await runCli(['users', 'list'], { DATA_DIR: target }, { out: () => {} })).toBe(0);
      const mine = fs.readFileSync(path.join(target, 'nodekeep.sqlite'));
      // A backup whose database knows a migration this build does not.
      const newer = path.join(path.dirname(archive), 'newer.tar.gz');
      const src = tempDataDir('nodekeep-newer-');
      expect(await runCli(['users', 'list'], { DATA_DIR: src }, { out: () => {} })).toBe(0);
      const db = new SQLite(path.join(src, 'nodekeep.sqlite'));
      db.prepare(
        "INSERT INTO kysely_migration (name, timestamp) VALUES ('2099-01-01T0000-from-the-future', '2099-01-01')",
      ).run();
      db.close();
      expect(await runCli(['backup', newer], { DATA_DIR: src }, { out: () => {} })).toBe(0);
      fs.rmSync(src, { recursive: true, force: true });
      const err: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((c: string) => (err.push(String(c)), true)) as typeof process.stderr.write;
      try {
        expect(await runCli(['restore', newer], { DATA_DIR: target }, { out: () => {} })).toBe(1);
        const damaged = path.join(path.dirname(archive), 'damaged.tar.gz');
        const whole = fs.readFileSync(archive);
        fs.writeFileSync(damaged, whole.subarray(0, Math.floor(whole.length / 2)));
        expect(await runCli(['restore', damaged], { DATA_DIR: target }, { out: () => {} })).toBe(1);
        // A well-formed archive whose database changed by one byte after the backup was made.
        const flipped = path.join(path.dirname(archive), 'flipped.tar.gz');
        const entries: TarEntry[] = [];
        await readTar(Readable.from(zlib.gunzipSync(whole)), async (h, content) => {
          const chunks: Buffer[] = [];
          for await (const c of content) chunks.push(c as Buffer);
          const body = Buffer.concat(chunks);
          if (h.name === 'nodekeep.sqlite') body[body.length - 1] ^= 0xff;
          entries.push({ name: h.name, mode: h.mode, content: body });
        });
        fs.writeFileSync(flipped, zlib.gzipSync(await tarBuffer(entries)));
        expect(await runCli(['restore', flipped], { DATA_DIR: target }, { out: () => {} })).toBe(1);
        const foreign = path.join(path.dirname(archive), 'foreign.tar.gz');
        fs.writeFileSync(foreign, 'not a backup');
        expect(await runCli(['restore', foreign], { DATA_DIR: target }, { out: () => {} })).toBe(1);
      } finally {
        process.stderr.write = write;
      }
      expect(err.join('')).toMatch(
        /was made by a newer Nodekeep \(its database has migrations this build does not know: 2099-01-01T0000-from-the-future\)/,
      );
      expect(err.join('')).toMatch(
        /damaged\.tar\.gz is damaged \(cut short in a copy\?\) or not a Nodekeep backup \(unexpected end of file\)\. Nothing was replaced\./,
      );
      expect(err.join('')).toMatch(
        /flipped\.tar\.gz is damaged: nodekeep\.sqlite does not match the checksum in its manifest \(changed after the backup was made\)\. Nothing was replaced\./,
      );
      expect(err.join('')).toMatch(
        /foreign\.tar\.gz is damaged \(cut short in a copy\?\) or not a Nodekeep backup \(incorrect header check\)/,
      );
      expect(fs.readFileSync(path.join(target, 'nodekeep.sqlite'))).toEqual(mine);
      expect(fs.readdirSync(target).some((f) => f.startsWith('before-restore-') || f.startsWith('.restore-'))).toBe(
        false,
      );
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('a folder whose key is SECRETS_KEY, not a file', () => {
  it('backs up without a key and says so; its restore keeps the key file the target has', async () => {
    const src = tempDataDir('nodekeep-envkey-');
    const target = tempDataDir('nodekeep-envkey-target-');
    const file = path.join(src, 'envkey.tar.gz');
    const env = { SECRETS_KEY: 'ab'.repeat(32) };
    try {
      expect((await cliRun(['users', 'list'], { DATA_DIR: src, ...env })).code).toBe(0);
      const b = await cliRun(['backup', file], { DATA_DIR: src, ...env });
      expect(b.code).toBe(0);
      expect(b.out).toMatch(
        /\. It holds no secrets key: the data folder has no key file \(SECRETS_KEY is set, or the server has not started yet\), so keep the key apart/,
      );
      // The target has a key file of its own: a restore of a key-less backup leaves it there.
      expect((await cliRun(['users', 'list'], { DATA_DIR: target })).code).toBe(0);
      fs.writeFileSync(path.join(target, 'secrets.key'), 'cd'.repeat(32) + '\n', { mode: 0o600 });
      const r = await cliRun(['restore', file], { DATA_DIR: target });
      expect(r.code).toBe(0);
      expect(r.out).toMatch(
        /Start the server with the secrets key the backup was made with \(it holds no key file: give the same SECRETS_KEY\)\.$/,
      );
      expect(fs.readFileSync(path.join(target, 'secrets.key'), 'utf8')).toBe('cd'.repeat(32) + '\n');
    } finally {
      for (const d of [src, target]) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});

describe("the server's own backup", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ BACKUP_KEEP_DAYS: '0' });
    // About 40 MiB: ten steps of the copy at least.
    await sql`CREATE TABLE filler (b BLOB)`.execute(t.deps.db);
    for (let i = 0; i < 40; i++) await sql`INSERT INTO filler (b) VALUES (randomblob(1048576))`.execute(t.deps.db);
  });
  afterAll(async () => {
    await stopTestServer(t);
  });

  /** Restores `archive` into a new folder, as the operator would, and reads its database. */
  async function restoredRead<T>(archive: string, read: (db: SQLite.Database) => T): Promise<T> {
    const target = tempDataDir('nodekeep-restored-');
    try {
      expect((await cliRun(['restore', archive], { DATA_DIR: target })).code).toBe(0);
      const db = new SQLite(path.join(target, 'nodekeep.sqlite'), { readonly: true });
      try {
        return read(db);
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  }

  const workCopy = () => {
    const work = fs.readdirSync(t.dataDir).find((f) => f.startsWith('.backup-'));
    const copy = work && path.join(t.dataDir, work, 'nodekeep.sqlite');
    return copy && fs.existsSync(copy) ? fs.statSync(copy).size : 0;
  };

  it('copies in steps with the event loop free between them, taking in what the server writes meanwhile', async () => {
    const out = path.join(t.dataDir, 'backups', 'steps.tar.gz');
    let done = false;
    const backup = writeBackup(t.dataDir, t.config.dbFile, out, { source: connectionOf(t.deps.db) }).finally(
      () => (done = true),
    );
    // Turns of the event loop while the copy is under way: the server answers meanwhile.
    let turns = 0;
    while (workCopy() === 0) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
    expect(done).toBe(false);
    // A write through the server's connection in the middle of the copy ends up in it.
    await sql`INSERT INTO filler (b) VALUES (x'c0ffee')`.execute(t.deps.db);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect(done).toBe(false);
    const r = await backup;
    expect(r.withKey).toBe(true);
    expect(turns).toBeGreaterThan(0);
    expect(
      await restoredRead(out, (db) => [
        db.pragma('integrity_check'),
        db.prepare("SELECT count(*) AS n FROM filler WHERE b = x'c0ffee'").get(),
        db.prepare('SELECT count(*) AS n FROM filler').get(),
      ]),
    ).toEqual([[{ integrity_check: 'ok' }], { n: 1 }, { n: 41 }]);
  });

  it("begins again when its first step meets the connection's own write transaction", async () => {
    const out = path.join(t.dataDir, 'backups', 'busy.tar.gz');
    const conn = connectionOf(t.deps.db);
    // A transaction of the server's still open when the copy starts (none is today; one
    // that waited on anything but the database would be): better-sqlite3 reports that
    // first step as a finished copy of 0 pages.
    conn.exec('BEGIN IMMEDIATE');
    conn.prepare("INSERT INTO filler (b) VALUES (x'beef')").run();
    const backup = writeBackup(t.dataDir, t.config.dbFile, out, { source: conn });
    setTimeout(() => conn.exec('COMMIT'), 300);
    const r = await backup;
    expect(r.bytes).toBeGreaterThan(0);
    expect(
      await restoredRead(out, (db) => db.prepare("SELECT count(*) AS n FROM filler WHERE b = x'beef'").get()),
    ).toEqual({ n: 1 });
  });

  it('stops between two steps when the server stops, leaving no copy and no part file', async () => {
    const out = path.join(t.dataDir, 'backups', 'stopped.tar.gz');
    const stop = new AbortController();
    const backup = writeBackup(t.dataDir, t.config.dbFile, out, {
      source: connectionOf(t.deps.db),
      signal: stop.signal,
    }).then(
      () => null,
      (e: Error) => e,
    );
    while (workCopy() === 0) await new Promise((r) => setImmediate(r));
    stop.abort(new Error('the server is shutting down'));
    expect((await backup)?.message).toBe('the server is shutting down');
    expect(fs.readdirSync(t.dataDir).filter((f) => f.startsWith('.backup-'))).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'backups')).filter((f) => f.startsWith('stopped'))).toEqual([]);
  });

  it('sweeps what a cut-off backup or restore left once a day has passed, and nothing newer', () => {
    const backups = path.join(t.dataDir, 'backups');
    fs.mkdirSync(backups, { recursive: true });
    const old = [
      path.join(t.dataDir, '.backup-old'),
      path.join(t.dataDir, '.restore-old'),
      path.join(backups, 'nodekeep-2026-01-01T00-00-00-000Z.tar.gz.part'),
    ];
    const fresh = path.join(t.dataDir, '.backup-fresh');
    for (const p of [...old.slice(0, 2), fresh]) fs.mkdirSync(p);
    fs.writeFileSync(old[2], 'half');
    const dayAgo = new Date(Date.now() - 86_400_000 - 60_000);
    for (const p of old) fs.utimesSync(p, dayAgo, dayAgo);
    expect(sweepLeftovers(t.dataDir, backups).sort()).toEqual([...old].sort());
    for (const p of old) expect(fs.existsSync(p)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    fs.rmSync(fresh, { recursive: true });
  });
});
