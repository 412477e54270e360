// The http tier: adding a host reaches a real Docker API on loopback (test/support/fake-docker.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { bundledCatalogPath, importCatalog } from '../src/server/coins/import';
import { hostConnection, HostUrlError } from '../src/server/fleet/host-url';
import fs from 'node:fs';
import path from 'node:path';
import { makeTlsMaterial, startFakeDocker, startFakeTlsDocker } from './support/fake-docker';
import { makeDeps, rejection, type Deps } from './support/caller';
import { insertTestNode } from './support/nodes';
import { restartNode } from '../src/server/nodes/node-ops';
import { cliActor } from '../src/server/operator/log';
import { waitFor } from './support/wait';
import { freshUser, type FreshUser } from './support/users';

let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
let docker: Awaited<ReturnType<typeof startFakeDocker>>;
const OPERATOR_IP = '198.51.100.9';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect(await runCli(['users', 'promote', operator.username], env(), { out: () => {} })).toBe(0);
  docker = await startFakeDocker();
});
afterAll(async () => {
  await docker?.close();
  await d?.close();
});

const env = () => ({ DATA_DIR: d.deps.config.dataDir });
const op = () => d.caller(operator.token, OPERATOR_IP).console;
const cli = async (...args: string[]) => {
  const out: string[] = [];
  const code = await runCli(args, env(), { out: (l) => out.push(l) });
  return { code, out };
};
const lastLine = async () => (await op().log({ per_page: 1 })).lines[0];
const logTotal = async () => (await op().log({})).total;
const hostRows = () => d.db.selectFrom('hosts').selectAll().orderBy('id').execute();

function expectOperatorLine(line: Awaited<ReturnType<typeof lastLine>>, action: string) {
  expect(line).toMatchObject({
    action,
    actor: 'operator',
    operator: { id: operator.id, username: operator.username },
    address: OPERATOR_IP,
  });
  expect(Math.abs(Date.parse(line.at) - Date.now())).toBeLessThan(60_000);
}

describe('the remote Docker API rule (shared by the CLI and the console)', () => {
  it('accepts sockets, loopback tcp, TLS with all three PEMs and SSH with a user; refuses the rest with a reason', () => {
    const pem = (w: string) => `-----BEGIN ${w}-----\nAAAA\n-----END ${w}-----`;
    expect(hostConnection('unix:///run/podman/podman.sock')).toEqual({
      kind: 'socket',
      socketPath: '/run/podman/podman.sock',
    });
    expect(hostConnection('tcp://127.0.0.1:2375')).toMatchObject({ kind: 'plain', host: '127.0.0.1', port: 2375 });
    expect(hostConnection('tcp://127.8.9.10:2375')).toMatchObject({ kind: 'plain' });
    expect(hostConnection('tcp://localhost:2375')).toMatchObject({ kind: 'plain' });
    expect(hostConnection('tcp://[::1]:2375')).toMatchObject({ kind: 'plain' });
    expect(
      hostConnection('https://203.0.113.5:2376', {
        tls: { ca: pem('CERTIFICATE'), cert: pem('CERTIFICATE'), key: pem('PRIVATE KEY') },
      }),
    ).toMatchObject({ kind: 'tls', host: '203.0.113.5', port: 2376 });
    expect(
      hostConnection('tcp+tls://203.0.113.5', {
        tls: { ca: pem('CERTIFICATE'), cert: pem('CERTIFICATE'), key: pem('PRIVATE KEY') },
      }),
    ).toMatchObject({ kind: 'tls', port: 2376 });
    expect(hostConnection('ssh://deploy@203.0.113.5')).toMatchObject({ kind: 'ssh', username: 'deploy', port: 22 });
    for (const [url, creds] of [
      ['tcp://203.0.113.5:2375', {}],
      ['tcp://10.0.0.2:2375', {}],
      ['http://docker.example.com:2375', {}],
      ['tcp://128.0.0.1:2375', {}],
      ['https://203.0.113.5:2376', {}],
      ['https://203.0.113.5:2376', { tls: { ca: 'x', cert: pem('CERTIFICATE'), key: pem('PRIVATE KEY') } }],
      ['ssh://203.0.113.5', {}],
      ['ssh://deploy:secret@203.0.113.5', {}],
      ['ftp://203.0.113.5', {}],
      ['not a url', {}],
    ] as const) {
      expect(() => hostConnection(url, creds), url).toThrow(HostUrlError);
    }
    expect(() => hostConnection('tcp://203.0.113.5:2375')).toThrow(
      /plain tcp:\/\/ is refused for 203\.0\.113\.5.*TLS with a client certificate.*SSH/,
    );
  });

  it('refuses a plain tcp:// remote host from the console and from the CLI, with the same message, and changes nothing', async () => {
    const [hostsBefore, linesBefore] = [await hostRows(), await logTotal()];
    const err = await rejection(
      op().fleet.add_host({ name: 'remote1', url: 'tcp://203.0.113.5:2375', ipv4: '203.0.113.5' }),
    );
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/plain tcp:\/\/ is refused for 203\.0\.113\.5/);
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
    let code: number;
    try {
      code = (
        await cli(
          'hosts',
          'add',
          'remote1',
          '--engine',
          'docker',
          '--url',
          'tcp://203.0.113.5:2375',
          '--ipv4',
          '203.0.113.5',
        )
      ).code;
    } finally {
      process.stderr.write = write;
    }
    expect(code).toBe(2);
    expect(stderr.join('')).toContain(err.message);
    // TLS without its certificate and key is refused the same way.
    expect(
      (await rejection(op().fleet.add_host({ name: 'remote2', url: 'https://203.0.113.5:2376', ipv4: '203.0.113.5' })))
        .message,
    ).toMatch(/needs the CA certificate, the client certificate and the client key/);
    expect(await hostRows()).toEqual(hostsBefore);
    expect(await logTotal()).toBe(linesBefore);
  });
});

describe('console Fleet: hosts', () => {
  it('adds a loopback host after reaching it, logs who/what/when/where, and never logs key material', async () => {
    const callsBefore = docker.calls.length;
    await op().fleet.add_host({ name: 'loop1', url: docker.url, ipv4: '192.0.2.20', dedicated: 3, cloud: 7 });
    expect(docker.calls.length).toBeGreaterThan(callsBefore);
    expect(docker.calls.at(-1)).toMatch(/^GET \/v1\.41\/containers\/json/);
    const line = await lastLine();
    expectOperatorLine(line, 'hosts add');
    expect(line.detail).toEqual({ name: 'loop1', url: docker.url, connection: 'plain' });
    const listed = (await op().fleet.hosts()).find((h) => h.name === 'loop1');
    expect(listed).toMatchObject({
      state: 'active',
      has_credentials: false,
      dedicated: { used: 0, slots: 3, free: 3 },
      cloud: { used: 0, slots: 7, free: 7 },
    });
  });

  it('refuses a host it cannot reach, and a name taken, changing nothing', async () => {
    const [hostsBefore, linesBefore] = [await hostRows(), await logTotal()];
    const closed = await startFakeDocker();
    await closed.close();
    const err = await rejection(op().fleet.add_host({ name: 'gone1', url: closed.url, ipv4: '192.0.2.21' }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/^cannot reach tcp:\/\/127\.0\.0\.1:\d+: .*unreachable/);
    expect((await rejection(op().fleet.add_host({ name: 'loop1', url: docker.url, ipv4: '192.0.2.20' }))).code).toBe(
      'CONFLICT',
    );
    expect((await rejection(op().fleet.add_host({ name: 'Bad Name', url: docker.url, ipv4: '192.0.2.20' }))).code).toBe(
      'BAD_REQUEST',
    );
    expect(await hostRows()).toEqual(hostsBefore);
    expect(await logTotal()).toBe(linesBefore);
  });

  it('sets capacity, drains and removes through the same service as the CLI, each logged under the CLI command name', async () => {
    await op().fleet.set_host({ name: 'loop1', dedicated: 5 });
    expectOperatorLine(await lastLine(), 'hosts set');
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop1')).toMatchObject({
      dedicated: { slots: 5 },
      cloud: { slots: 7 },
    });
    // The CLI changes the same row; the console reads it back.
    expect((await cli('hosts', 'set', 'loop1', '--cloud', '9')).code).toBe(0);
    expect(await lastLine()).toMatchObject({ action: 'hosts set', actor: 'cli', address: 'cli' });
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop1')).toMatchObject({
      dedicated: { slots: 5 },
      cloud: { slots: 9 },
    });

    await op().fleet.drain_host({ name: 'loop1' });
    expectOperatorLine(await lastLine(), 'hosts drain');
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop1')?.state).toBe('draining');
    // A drain is undone by one call (console) or command (CLI), each logged.
    await op().fleet.activate_host({ name: 'loop1' });
    expectOperatorLine(await lastLine(), 'hosts activate');
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop1')?.state).toBe('active');
    const already = await logTotal();
    expect((await rejection(op().fleet.activate_host({ name: 'loop1' }))).message).toBe(
      'Host loop1 is already active.',
    );
    expect(await logTotal()).toBe(already);
    expect((await cli('hosts', 'drain', 'loop1')).code).toBe(0);
    expect(await cli('hosts', 'set', 'loop1', '--cloud', '9')).toEqual({
      code: 0,
      out: ['host loop1 updated (still draining: `hosts activate loop1` to take new nodes)'],
    });
    expect(await cli('hosts', 'activate', 'loop1')).toEqual({
      code: 0,
      out: ['host loop1 is active: new nodes may go there'],
    });
    expect(await lastLine()).toMatchObject({ action: 'hosts activate', actor: 'cli' });
    await op().fleet.drain_host({ name: 'loop1' });
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop1')?.state).toBe('draining');

    // A host with a node on it is not removed.
    const host = (await hostRows()).find((h) => h.name === 'loop1')!;
    const nodeId = await insertTestNode(d.db, {
      mn_id: 'dash-hostnode01',
      user_id: customer.id,
      coin_id: 'dash',
      placement: { host_id: host.id },
    });
    const before = await logTotal();
    expect((await rejection(op().fleet.remove_host({ name: 'loop1' }))).message).toMatch(/still runs 1 nodes/);
    expect(await logTotal()).toBe(before);
    await d.db.updateTable('placements').set({ destroyed_at: Date.now() }).where('node_id', '=', nodeId).execute();
    await d.db.updateTable('nodes').set({ state: 'deleted' }).where('id', '=', nodeId).execute();
    await op().fleet.remove_host({ name: 'loop1' });
    expectOperatorLine(await lastLine(), 'hosts remove');
    expect((await hostRows()).some((h) => h.name === 'loop1')).toBe(false);
    expect((await rejection(op().fleet.set_host({ name: 'loop1', dedicated: 1 }))).code).toBe('NOT_FOUND');
    expect((await rejection(op().fleet.set_host({ name: 'local', dedicated: -1 }))).code).toBe('BAD_REQUEST');
  });

  it('adds a TLS host with its client certificate (sealed, never shown or logged); a wrong certificate is refused', async () => {
    const dir = fs.mkdtempSync(path.join(d.deps.config.dataDir, 'tls-'));
    const m = makeTlsMaterial(dir);
    const tlsDocker = await startFakeTlsDocker(m);
    try {
      // A client certificate the host's CA did not sign: the TLS handshake fails, nothing is added.
      const other = makeTlsMaterial(fs.mkdtempSync(path.join(d.deps.config.dataDir, 'tls-other-')));
      const before = await logTotal();
      const err = await rejection(
        op().fleet.add_host({
          name: 'tls-bad',
          url: tlsDocker.url,
          ipv4: '192.0.2.40',
          tls: { ca: m.ca, cert: other.clientCert, key: other.clientKey },
        }),
      );
      expect(err.message).toMatch(/^cannot reach https:\/\/127\.0\.0\.1/);
      expect(await logTotal()).toBe(before);

      await op().fleet.add_host({
        name: 'tls1',
        url: tlsDocker.url,
        ipv4: '192.0.2.40',
        tls: { ca: m.ca, cert: m.clientCert, key: m.clientKey },
      });
      expect(tlsDocker.calls.some((c) => c.startsWith('GET /v1.41/containers/json'))).toBe(true);
      const line = await lastLine();
      expectOperatorLine(line, 'hosts add');
      expect(line.detail).toEqual({ name: 'tls1', url: tlsDocker.url, connection: 'tls' });
      const row = (await hostRows()).find((h) => h.name === 'tls1')!;
      expect(row.credentials).not.toBeNull();
      expect(row.credentials).not.toContain('PRIVATE KEY');
      expect((await op().fleet.hosts()).find((h) => h.name === 'tls1')).toMatchObject({ has_credentials: true });
      expect(JSON.stringify(await op().fleet.hosts())).not.toContain('PRIVATE KEY');
      // The control loop's engine opens the sealed material and reaches the host the same way.
      const { dockerEngineFor } = await import('../src/server/nodes/hosts');
      const engine = dockerEngineFor(d.deps.secrets, row, d.log);
      try {
        expect(await engine.list()).toEqual([]);
      } finally {
        await engine.close();
      }
      await op().fleet.remove_host({ name: 'tls1' });
    } finally {
      await tlsDocker.close();
    }
  });

  it('the CLI adds a host through the same check (and the console lists it)', async () => {
    expect(
      (
        await cli(
          'hosts',
          'add',
          'loop2',
          '--engine',
          'docker',
          '--url',
          docker.url,
          '--ipv4',
          '192.0.2.22',
          '--dedicated',
          '2',
        )
      ).code,
    ).toBe(0);
    expect(await lastLine()).toMatchObject({
      action: 'hosts add',
      actor: 'cli',
      detail: { name: 'loop2', connection: 'plain' },
    });
    expect((await op().fleet.hosts()).find((h) => h.name === 'loop2')).toMatchObject({ dedicated: { slots: 2 } });
  });
});

describe('console Fleet: nodes and the failed queue', () => {
  it('searches every node by user, coin, id, IP and status, paginated', async () => {
    for (let i = 0; i < 3; i++)
      await insertTestNode(d.db, {
        mn_id: `pivx-search0${i}`,
        user_id: customer.id,
        coin_id: 'pivx',
        status: i === 0 ? 'ENABLED' : 'SYNCING',
        placement: { server_ip: `192.0.2.${100 + i}` },
      });
    expect((await op().fleet.nodes({ q: customer.username })).total).toBeGreaterThanOrEqual(3);
    expect((await op().fleet.nodes({ q: 'pivx-search01' })).nodes.map((n) => n.mn_id)).toEqual(['pivx-search01']);
    expect((await op().fleet.nodes({ q: '192.0.2.102' })).nodes.map((n) => n.mn_id)).toEqual(['pivx-search02']);
    expect((await op().fleet.nodes({ coin: 'pivx', status: 'ENABLED' })).nodes.map((n) => n.mn_id)).toEqual([
      'pivx-search00',
    ]);
    const page1 = await op().fleet.nodes({ coin: 'pivx', per_page: 2 });
    const page2 = await op().fleet.nodes({ coin: 'pivx', per_page: 2, page: 2 });
    expect(page1.total).toBe(3);
    expect(page1.nodes).toHaveLength(2);
    expect(page2.nodes).toHaveLength(1);
    // LIKE wildcards are literal.
    expect((await op().fleet.nodes({ q: '%' })).total).toBe(0);
  });

  it('says when the control loop did not answer a restart in time, and refuses a node not running at once', async () => {
    await insertTestNode(d.db, { mn_id: 'dash-opnoans01', user_id: customer.id, coin_id: 'dash', placement: {} });
    // This tier runs no control loop: nothing answers.
    expect(await restartNode(d.db, cliActor(), 'dash-opnoans01', 1_000)).toEqual({
      outcome: 'no_answer',
      message: 'no answer from the running server within 1 s: is it running? (the restart stays asked for)',
    });
    await insertTestNode(d.db, {
      mn_id: 'dash-opprov001',
      user_id: customer.id,
      coin_id: 'dash',
      state: 'provisioning',
      placement: {},
    });
    const before = await logTotal();
    const e = await rejection(op().fleet.restart_node({ mn_id: 'dash-opprov001' }));
    expect([e.code, e.message]).toEqual([
      'CONFLICT',
      'Node dash-opprov001 is not running on a server (it is provisioning): there is nothing to restart.',
    ]);
    expect(await logTotal()).toBe(before);
  });

  it('restarts and destroys with a reason through the same service as the CLI, logged', async () => {
    const nodeId = await insertTestNode(d.db, {
      mn_id: 'dash-opnode001',
      user_id: customer.id,
      coin_id: 'dash',
      placement: {},
      status: 'running',
      observation: { checked_at: 1 },
    });
    // This tier runs no control loop: the test writes its answers, as the loop does (reconcile.ts).
    const asked = async (after: number) => {
      const p = await waitFor(
        async () =>
          (
            await d.db
              .selectFrom('placements')
              .select('restart_requested_at')
              .where('node_id', '=', nodeId)
              .where('restart_requested_at', '>', after)
              .executeTakeFirst()
          )?.restart_requested_at,
        10_000,
        'the restart to be asked for',
      );
      return p;
    };
    const failed = op().fleet.restart_node({ mn_id: 'dash-opnode001' });
    const at1 = await asked(0);
    await d.db
      .insertInto('node_events')
      .values({
        node_id: nodeId,
        kind: 'restart_failed',
        at: at1,
        detail: JSON.stringify({ error: 'host unreachable' }),
      })
      .execute();
    const e = await rejection(failed);
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
    expect(e.message).toBe('dash-opnode001 could not be restarted: host unreachable');
    expectOperatorLine(await lastLine(), 'node restart');

    const restarted = op().fleet.restart_node({ mn_id: 'dash-opnode001' });
    const at2 = await asked(at1);
    await d.db.insertInto('node_events').values({ node_id: nodeId, kind: 'restarted', at: at2 }).execute();
    await d.db
      .updateTable('observations')
      .set({ checked_at: at2 + 1 })
      .where('node_id', '=', nodeId)
      .execute();
    expect(await restarted).toEqual({
      success: true,
      message: 'dash-opnode001 restarted; its daemon answers (running)',
    });

    const before = await logTotal();
    expect((await rejection(op().fleet.destroy_node({ mn_id: 'dash-opnode001', reason: '  ' }))).code).toBe(
      'BAD_REQUEST',
    );
    expect((await rejection(op().fleet.destroy_node({ mn_id: 'dash-nonesuch', reason: 'abuse' }))).code).toBe(
      'NOT_FOUND',
    );
    expect(await logTotal()).toBe(before);
    await op().fleet.destroy_node({ mn_id: 'dash-opnode001', reason: 'abuse report 42' });
    const line = await lastLine();
    expectOperatorLine(line, 'node destroy');
    expect(line.detail).toEqual({ node: 'dash-opnode001', reason: 'abuse report 42' });
    const node = await d.db
      .selectFrom('nodes')
      .select(['state', 'delete_reason'])
      .where('mn_id', '=', 'dash-opnode001')
      .executeTakeFirstOrThrow();
    expect(node).toEqual({ state: 'deleting', delete_reason: 'abuse report 42' });

    // The CLI's destroy is the same service: same log line and state.
    await insertTestNode(d.db, { mn_id: 'dash-opnode002', user_id: customer.id, coin_id: 'dash', placement: {} });
    expect((await cli('fleet', 'destroy', 'dash-opnode002', '--reason', 'abuse report 43')).code).toBe(0);
    expect(await lastLine()).toMatchObject({
      action: 'node destroy',
      actor: 'cli',
      detail: { node: 'dash-opnode002', reason: 'abuse report 43' },
    });
    expect(
      await d.db
        .selectFrom('nodes')
        .select(['state', 'delete_reason'])
        .where('mn_id', '=', 'dash-opnode002')
        .executeTakeFirstOrThrow(),
    ).toEqual({ state: 'deleting', delete_reason: 'abuse report 43' });
  });

  it("opens a node's log tail from its host, console and CLI alike", async () => {
    expect(
      (await cli('hosts', 'add', 'loop3', '--engine', 'docker', '--url', docker.url, '--ipv4', '192.0.2.23')).code,
    ).toBe(0);
    const host = (await hostRows()).find((h) => h.name === 'loop3')!;
    await insertTestNode(d.db, {
      mn_id: 'dash-logsnode1',
      user_id: customer.id,
      coin_id: 'dash',
      placement: { host_id: host.id },
    });
    expect(await op().fleet.node_logs({ mn_id: 'dash-logsnode1', tail: 50 })).toEqual({
      text: 'log of nodekeep-dash-logsnode1\ntail 50',
    });
    const r = await cli('fleet', 'logs', 'dash-logsnode1', '--tail', '7');
    expect(r).toEqual({ code: 0, out: ['log of nodekeep-dash-logsnode1\ntail 7'] });
    expect((await rejection(op().fleet.node_logs({ mn_id: 'dash-logsnode1', tail: 5000 }))).code).toBe('BAD_REQUEST');
    await insertTestNode(d.db, { mn_id: 'dash-nohost001', user_id: customer.id, coin_id: 'dash', placement: {} });
    expect((await rejection(op().fleet.node_logs({ mn_id: 'dash-nohost001', tail: 5 }))).message).toBe(
      'Node dash-nohost001 has no host yet.',
    );
  });

  it('lists failed jobs with their reason and retries one once, logged', async () => {
    const now = Date.now();
    const { id } = await d.db
      .insertInto('jobs')
      .values({
        name: 'channel_delivery',
        key: 'retry-test-1',
        payload: '{}',
        state: 'failed',
        attempts: 5,
        run_at: now,
        owner: null,
        last_error: 'webhook answered 500',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await op().fleet.failed_jobs()).find((j) => j.id === id)).toMatchObject({
      name: 'channel_delivery',
      attempts: 5,
      reason: 'webhook answered 500',
    });
    await op().fleet.retry_job({ id });
    expectOperatorLine(await lastLine(), 'jobs retry');
    expect(
      await d.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({ state: 'queued', attempts: 0 });
    const before = await logTotal();
    expect((await rejection(op().fleet.retry_job({ id }))).code).toBe('NOT_FOUND');
    expect(await logTotal()).toBe(before);
    expect((await op().fleet.failed_jobs()).some((j) => j.id === id)).toBe(false);
  });
});
