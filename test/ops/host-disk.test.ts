import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickHost } from '../../src/server/nodes/placement';
import type { DaemonProfile } from '../../src/server/fleet/profiles';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { scrape } from '../support/metrics';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';

// The local host's disk is a real 64 MB tmpfs holding the whole data folder; the test
// fills it with a file and frees it again. Threshold 30 MB, a host check every 200 ms.
const MB = 1024 * 1024;
const TOKEN = 'operator-token-disk-01234';

function mountTmpfs(): { dir: string } | { skip: string } {
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return { skip: 'mounting a tmpfs needs Linux and root' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs here: ${r.stderr.trim() || r.error?.message}` };
  }
  return { dir };
}

const mounted = mountTmpfs();
const skip = 'skip' in mounted ? mounted.skip : null;

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const CHAIN_DAEMON: DaemonProfile = {
  run: 'binary',
  program: '/usr/bin/coind',
  rpc: 'bitcoin',
  flavour: 'none',
  ports: ['rpc'],
  args: [],
};
const SIMULATED: DaemonProfile = { run: 'simulator', rpc: 'dash', sync_seconds: 1, time_scale: 1 };

describe.skipIf(skip !== null)(`host disk check on a real filling disk${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let s: TestServer;
  const dataDir = 'dir' in mounted ? path.join(mounted.dir, 'data') : '';
  const filler = path.join(dataDir, 'filler.bin');

  beforeAll(async () => {
    s = await startTestServer(
      { HOST_DISK_MIN_FREE_GB: '0.03', HOST_CHECK_SECONDS: '0.2', OPERATOR_TOKEN: TOKEN },
      { dataDir },
    );
  });
  afterAll(async () => {
    await stopTestServer(s);
    if ('dir' in mounted) {
      spawnSync('umount', ['-l', mounted.dir]);
      fs.rmSync(mounted.dir, { recursive: true, force: true });
    }
  });

  const local = () => s.deps.db.selectFrom('hosts').selectAll().where('engine', '=', 'local').executeTakeFirstOrThrow();
  const alerts = (userId: number) =>
    s.deps.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'host_disk_low')
      .execute();
  const ask = (userId: number) =>
    requestNode(
      s.deps.db,
      { profiles: s.fleet.profiles, log: s.deps.log, simulator: true },
      { userId, coinId: 'dash', plan: 'cloud' },
    );

  it('records free disk, alerts the operators once per crossing, and places no node on the host while it is short', async () => {
    const operator = await freshUser(s.deps, { prefix: 'dop', login: false });
    await s.deps.db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.id).execute();
    const customer = await freshUser(s.deps, { prefix: 'dcu', login: false });

    // Measured: the tmpfs's size and what is free on it.
    const first = await until('a measurement', async () => ((await local()).disk_checked_at ? local() : undefined));
    expect(first.disk_total_bytes).toBe(64 * MB);
    expect(first.disk_free_bytes).toBeGreaterThan(30 * MB);
    expect(first.disk_low_at).toBeNull();
    // And its memory, which placement counts the nodes' committed memory against.
    expect(first.memory_total_bytes).toBe(os.totalmem());

    // Fill it past the threshold.
    fs.writeFileSync(filler, Buffer.alloc(40 * MB, 1));
    const low = await until('the host marked short of disk', async () =>
      (await local()).disk_low_at !== null ? local() : undefined,
    );
    expect(low.disk_free_bytes).toBeLessThan(30 * MB);
    const [alert] = await until('the operator alert', async () =>
      (await alerts(operator.id)).length ? alerts(operator.id) : undefined,
    );
    expect(alert.message).toMatch(/^Host local has [\d.]+ GB of 0\.07 GB free, below the 0\.03 GB threshold\./);
    expect(await alerts(customer.id)).toEqual([]);
    expect(s.logLines.filter((l) => l.includes('"msg":"host disk low: the host takes no new nodes"'))).toHaveLength(1);
    const logged = await s.deps.db
      .selectFrom('operator_log')
      .selectAll()
      .where('action', '=', 'host disk low')
      .execute();
    expect(logged).toHaveLength(1);
    // Mailed to the operator.
    await until('the alert mail', async () =>
      s.deps.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_addr', '=', operator.email)
        .where('subject', '=', 'Host local is running out of disk')
        .executeTakeFirst(),
    );

    // In /metrics for the dashboard.
    const { samples } = await scrape(s.url, TOKEN);
    expect(samples.get('nodekeep_host_disk_low{host="local"}')).toBe(1);
    expect(samples.get('nodekeep_host_disk_total_bytes{host="local"}')).toBe(64 * MB);
    expect(samples.get('nodekeep_host_disk_free_bytes{host="local"}')).toBeLessThan(30 * MB);

    // Placement passes it for a daemon that keeps a chain on disk; a simulated node keeps none and still goes there.
    expect(pickHost([await local()], new Map(), 'cloud', CHAIN_DAEMON)).toBeNull();
    expect(pickHost([await local()], new Map(), 'cloud', SIMULATED)?.host.id).toBe(low.id);

    // Many more checks while it stays low: still one alert.
    const checked = (await local()).disk_checked_at!;
    await until('more checks', async () => ((await local()).disk_checked_at! > checked + 600 ? true : undefined));
    expect(await alerts(operator.id)).toHaveLength(1);

    // Freed: the mark goes, the host takes nodes again.
    fs.rmSync(filler);
    await until('the mark cleared', async () => ((await local()).disk_low_at === null ? true : undefined));
    expect(s.logLines.some((l) => l.includes('"msg":"host disk ok again: the host takes new nodes"'))).toBe(true);
    expect(pickHost([await local()], new Map(), 'cloud', CHAIN_DAEMON)?.host.id).toBe(low.id);
    const node = await ask(customer.id);
    await until('the node placed on the host', async () => {
      const row = await s.deps.db
        .selectFrom('node_view')
        .select(['host_id', 'state'])
        .where('mn_id', '=', node.mn_id)
        .executeTakeFirst();
      return row?.host_id === low.id && row.state !== 'failed' ? row : undefined;
    });

    // A second crossing alerts again.
    fs.writeFileSync(filler, Buffer.alloc(40 * MB, 1));
    await until('a second alert', async () => ((await alerts(operator.id)).length === 2 ? true : undefined));
    fs.rmSync(filler);
  });
});
