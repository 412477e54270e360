import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Docker from 'dockerode';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonSpec, NodeEngine } from '../../src/server/fleet/engine';
import { containerName, dockerEngine, volumeName } from '../../src/server/fleet/engines/docker';
import { memoryLogger } from '../../src/server/kernel/log';
import { BUSYBOX_ENTRYPOINT, BUSYBOX_IMAGE, busyboxRootfs } from '../support/images/busybox';
import { LITECOIND_ENTRYPOINT, LITECOIND_IMAGE, litecoindRootfs } from '../support/images/litecoind';
import { startPodman, type Podman } from '../support/podman';
import { ensureWallet, mineTo, rpc, waitFor } from '../support/daemons';
import { freePort } from '../../src/server/nodes/daemon-spec';

// One private Podman for the file; every test removes its own containers and volumes.
const started = await startPodman();
const skip = 'skip' in started ? started.skip : null;
if (skip) console.warn(`docker engine tests skipped: ${skip}`);
/** The running Podman; only called inside the tests, which are skipped without one. */
function pm(): Podman {
  if ('skip' in started) throw new Error(started.skip);
  return started;
}

const HOST_ID = 'test-host';
const log = memoryLogger();
let engine: NodeEngine;
let docker: Docker;
const made: string[] = [];

function nodeId(prefix: string) {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}`;
}

function busyboxSpec(id: string, args: string[] = ['/data', '8080']): DaemonSpec {
  return {
    nodeId: id,
    ownerId: 42,
    coinId: 'testcoin',
    plan: 'cloud',
    program: BUSYBOX_IMAGE,
    args,
    ports: { rpc: 8080 },
    rpcPort: 'rpc',
    dataDir: '/data',
    limits: { memoryBytes: 64 * 1024 * 1024, cpus: 0.5 },
  };
}

/** Creates through the engine and remembers the node for cleanup. */
async function create(spec: DaemonSpec) {
  made.push(spec.nodeId);
  await engine.create(spec);
}

async function fetchText(url: string, init?: RequestInit): Promise<string | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

/** One file of a container, read back through the API's `GET .../archive` (a tar of it). */
async function readArchived(id: string, file: string): Promise<{ name: string; mode: number; content: string }> {
  const stream = await docker.getContainer(containerName(id)).getArchive({ path: file });
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const tar = Buffer.concat(chunks);
  const field = (at: number, len: number) =>
    tar
      .subarray(at, at + len)
      .toString('ascii')
      .replace(/\0.*$/s, '')
      .trim();
  const size = parseInt(field(124, 12), 8);
  return {
    name: field(0, 100),
    mode: parseInt(field(100, 8), 8),
    content: tar.subarray(512, 512 + size).toString('utf8'),
  };
}

async function volumeExists(name: string): Promise<boolean> {
  try {
    await docker.getVolume(name).inspect();
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(skip !== null)(`docker engine against a real Podman${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    engine = dockerEngine({ url: pm().socketUrl, hostId: HOST_ID, log });
    docker = new Docker({ socketPath: pm().socketPath });
    // Inside the instance's folder, which its stop() (or the next run's reaper) removes.
    const dir = fs.mkdtempSync(path.join(pm().dir, 'rootfs-'));
    await pm().buildImage(BUSYBOX_IMAGE, busyboxRootfs(dir), { entrypoint: BUSYBOX_ENTRYPOINT });
  });

  afterEach(async () => {
    // Even when a test failed half-way: nothing of it may outlive it.
    for (const id of made.splice(0))
      await engine.destroy(id).catch((err) => console.warn(`cleanup of ${id}: ${(err as Error).message}`));
  });

  afterAll(async () => {
    await engine?.close();
  });

  it('creates, starts, serves, logs, stops, restarts and destroys a daemon container', async () => {
    const id = nodeId('life');
    const spec = busyboxSpec(id);
    const t0 = performance.now();
    await create(spec);
    expect((await engine.inspect(id)).state).toBe('created');

    // What the runtime was told, as dockerode sees it.
    const info = await docker.getContainer(containerName(id)).inspect();
    expect(info.Config.Labels).toMatchObject({
      'nodekeep.node': id,
      'nodekeep.owner': '42',
      'nodekeep.coin': 'testcoin',
      'nodekeep.plan': 'cloud',
      'nodekeep.host': HOST_ID,
      'nodekeep.managed': 'true',
    });
    expect(info.HostConfig.Init).toBe(true);
    expect(info.HostConfig.RestartPolicy).toMatchObject({ Name: 'on-failure', MaximumRetryCount: 10 });
    expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024);
    expect(info.HostConfig.NanoCpus).toBe(500_000_000);
    expect(info.Mounts).toEqual([
      expect.objectContaining({ Type: 'volume', Name: volumeName(id), Destination: '/data' }),
    ]);

    await engine.start(id);
    console.info(`create+start: ${Math.round(performance.now() - t0)} ms`);
    const running = await engine.inspect(id);
    expect(running).toMatchObject({ state: 'running', restarts: 0, exitCode: null, error: null });
    expect(running.startedAt).toBeGreaterThan(Date.now() - 60_000);

    // The daemon's port, published on loopback by the runtime's choice.
    const ep = await engine.rpcEndpoint(id);
    expect(ep.host).toBe('127.0.0.1');
    expect(ep.port).toBeGreaterThan(0);
    await expect
      .poll(() => fetchText(`http://${ep.host}:${ep.port}/index.html`), { timeout: 10_000 })
      .toMatch(/^hello from /);
    // stdout and stderr reach the log through separate pipes: wait for both.
    await expect
      .poll(() => engine.logs(id), { timeout: 10_000 })
      .toMatch(
        /nk-daemon: stderr works[^]*nk-daemon: serving \/data|nk-daemon: serving \/data[^]*nk-daemon: stderr works/,
      );
    const logs = await engine.logs(id);
    expect(logs).toMatch(/nk-daemon: boot 1 on port 8080/);
    expect(logs).not.toMatch(/[\x00-\x08]/);
    expect((await engine.logs(id, 1)).split('\n')).toHaveLength(1);

    await engine.stop(id, 10);
    const stopped = await engine.inspect(id);
    expect(stopped.state).toBe('exited');
    expect(stopped.restarts).toBe(0); // a stop is not a crash: the restart policy leaves it alone
    await engine.stop(id, 10); // stopping a stopped node is fine

    await engine.start(id);
    expect((await engine.inspect(id)).state).toBe('running');
    const again = await engine.rpcEndpoint(id);
    // The volume outlived the stop: the daemon counts its boots in it.
    await expect
      .poll(() => fetchText(`http://${again.host}:${again.port}/boots`), { timeout: 10_000 })
      .toBe('boot\nboot\n');
    await engine.start(id); // starting a running node is fine

    await engine.destroy(id);
    expect(await engine.inspect(id)).toEqual({
      state: 'missing',
      restarts: 0,
      startedAt: null,
      exitCode: null,
      error: null,
    });
    expect(await volumeExists(volumeName(id))).toBe(false);
    await engine.destroy(id); // and again: nothing to do, no error
  });

  it('replaces a container with another image (a daemon upgrade), keeping its volume and whether it runs', async () => {
    const id = nodeId('upgr');
    await create(busyboxSpec(id));
    await engine.start(id);
    const ep = await engine.rpcEndpoint(id);
    await expect.poll(() => fetchText(`http://${ep.host}:${ep.port}/boots`), { timeout: 10_000 }).toBe('boot\n');
    // The "new version": the same daemon under another tag, as a coin's next release would be.
    const next = BUSYBOX_IMAGE.replace(/:1$/, ':2');
    await pm().cli(['tag', BUSYBOX_IMAGE, next]);
    await engine.replace({ ...busyboxSpec(id), program: next });
    const info = await docker.getContainer(containerName(id)).inspect();
    expect(info.Config.Image).toBe(next);
    expect((await engine.inspect(id)).state).toBe('running');
    const again = await engine.rpcEndpoint(id);
    // The volume is the node's: the daemon on the new image finds its first boot there.
    await expect
      .poll(() => fetchText(`http://${again.host}:${again.port}/boots`), { timeout: 10_000 })
      .toBe('boot\nboot\n');
    // A stopped node is replaced and stays stopped.
    await engine.stop(id, 10);
    await engine.replace(busyboxSpec(id));
    expect((await docker.getContainer(containerName(id)).inspect()).Config.Image).toBe(BUSYBOX_IMAGE);
    expect((await engine.inspect(id)).state).toBe('created');
    await expect(engine.replace(busyboxSpec(nodeId('none')))).rejects.toThrow();
  });

  it("puts the node's files into its container before the first start, 0600, and never on its command line", async () => {
    const id = nodeId('files');
    const secret = crypto.randomBytes(32).toString('hex');
    const conf = `server=1\nmasternodeblsprivkey=${secret}\n`;
    await create({ ...busyboxSpec(id), files: [{ name: 'node.conf', content: conf, mode: 0o600 }] });
    // Before the daemon ever ran: the file is in its data volume, as the runtime reports it.
    const before = await readArchived(id, '/data/node.conf');
    expect(before).toEqual({ name: 'node.conf', mode: 0o600, content: conf });
    // Nothing the host shows about the container carries the key.
    const info = await docker.getContainer(containerName(id)).inspect();
    expect(JSON.stringify(info)).not.toContain(secret);
    expect(await pm().cli(['inspect', containerName(id)])).not.toContain(secret);

    await engine.start(id);
    expect((await pm().cli(['exec', containerName(id), 'stat', '-c', '%a %u %s', '/data/node.conf'])).trim()).toBe(
      `600 0 ${conf.length}`,
    );
    expect(await pm().cli(['exec', containerName(id), 'cat', '/data/node.conf'])).toBe(conf);
    expect(await pm().cli(['exec', containerName(id), 'cat', '/proc/1/cmdline'])).not.toContain(secret);
    expect(await pm().cli(['ps', '--no-trunc', '--format', '{{.Command}}'])).not.toContain(secret);

    // A rewrite (the owner's key given later): replaced in place, read at the next start.
    const next = `server=1\nmasternodeblsprivkey=${'ab'.repeat(32)}\n`;
    await engine.stop(id, 10);
    await engine.writeFiles(id, [{ name: 'node.conf', content: next, mode: 0o600 }]);
    await engine.start(id);
    expect(await pm().cli(['exec', containerName(id), 'cat', '/data/node.conf'])).toBe(next);
    expect((await pm().cli(['exec', containerName(id), 'stat', '-c', '%a', '/data/node.conf'])).trim()).toBe('600');
    // The volume kept the rest: the daemon counted two boots.
    expect(await pm().cli(['exec', containerName(id), 'cat', '/data/boots'])).toBe('boot\nboot\n');
    await expect(engine.writeFiles(nodeId('absent'), [{ name: 'x', content: '', mode: 0o600 }])).rejects.toThrow(
      /has no container/,
    );
  });

  it('lets the restart policy bring a crashing daemon back, counting restarts', async () => {
    const id = nodeId('crash');
    await create(busyboxSpec(id, ['/data', '8080', '1']));
    await engine.start(id);

    // Between crashes the restarted daemon is up and serving, from the same volume.
    const servedAfterRestart = new Set<number>();
    let state = await engine.inspect(id);
    const deadline = Date.now() + 25_000;
    while ((state.restarts < 3 || servedAfterRestart.size === 0) && Date.now() < deadline) {
      if (state.state === 'running' && state.restarts > 0) {
        const ep = await engine.rpcEndpoint(id).catch(() => null);
        if (ep && (await fetchText(`http://${ep.host}:${ep.port}/index.html`))) servedAfterRestart.add(state.restarts);
      }
      await new Promise((r) => setTimeout(r, 100));
      state = await engine.inspect(id);
    }
    expect(state.restarts).toBeGreaterThanOrEqual(3);
    expect(servedAfterRestart.size).toBeGreaterThan(0);
    expect(['running', 'restarting', 'exited']).toContain(state.state);

    await expect
      .poll(async () => (await engine.logs(id, 1000)).match(/nk-daemon: crashing/g)?.length ?? 0)
      .toBeGreaterThanOrEqual(3);
    expect(await engine.logs(id, 1000)).toMatch(/nk-daemon: boot 3 on port 8080/);

    // A stop ends the cycle. Podman settles every exit with one event: `restart` when the
    // policy brings the container back, `cleanup` when it stays down. Wait for the verdict
    // on the stop's exit (the last `died` once stop has returned) rather than for time.
    await engine.stop(id, 10);
    expect((await engine.inspect(id)).state).toBe('exited');
    const events = async () =>
      (
        await pm().cli([
          'events',
          '--stream=false',
          '--filter',
          `container=${containerName(id)}`,
          '--format',
          '{{.Status}}',
        ])
      )
        .trim()
        .split('\n');
    const stopDied = (await events()).lastIndexOf('died');
    expect(stopDied).toBeGreaterThan(0);
    const verdict = await waitFor(
      async () => (await events()).slice(stopDied + 1).find((e) => e === 'restart' || e === 'cleanup'),
      30_000,
      "podman's verdict on the stopped container",
    );
    expect(verdict).toBe('cleanup');
    expect((await events()).slice(stopDied + 1)).not.toContain('start');
    expect((await engine.inspect(id)).state).toBe('exited');
  }, 60_000);

  it('runs a real litecoind in regtest and answers JSON-RPC on the published port', async () => {
    const dir = fs.mkdtempSync(path.join(pm().dir, 'rootfs-'));
    const tBuild = performance.now();
    await pm().buildImage(LITECOIND_IMAGE, litecoindRootfs(dir), { entrypoint: LITECOIND_ENTRYPOINT });
    console.info(`litecoind image built in ${Math.round(performance.now() - tBuild)} ms`);

    const id = nodeId('ltc');
    const password = crypto.randomBytes(12).toString('hex');
    // What a regtest litecoin.conf would say, as arguments: they apply whatever the network
    // (a config file would need them under [regtest]). mweb's deployment pushed out of reach,
    // or mining stops at height 431.
    const args = [
      '-regtest',
      '-datadir=/data',
      '-printtoconsole',
      '-server',
      '-rpcuser=nodekeep',
      `-rpcpassword=${password}`,
      '-rpcbind=0.0.0.0',
      '-rpcallowip=0.0.0.0/0',
      '-rpcport=19443',
      '-port=19444',
      '-listenonion=0',
      '-fallbackfee=0.0001',
      '-vbparams=mweb:4000000000:9223372036854775807',
    ];
    await create({
      ...busyboxSpec(id),
      coinId: 'litecoin',
      plan: 'dedicated',
      program: LITECOIND_IMAGE,
      args,
      ports: { rpc: 19443, p2p: 19444 },
      limits: { memoryBytes: 512 * 1024 * 1024, cpus: 1 },
    });
    const tStart = performance.now();
    await engine.start(id);
    const ep = await engine.rpcEndpoint(id);
    const target = { endpoint: ep, auth: { user: 'nodekeep', password } };

    // Until it has loaded its chain it answers -28 "Loading…", or nothing at all: retried
    // within the budget, and a failure names the daemon's last answer.
    expect(
      await rpc(target, 'getblockchaininfo', [], v.looseObject({ chain: v.string(), blocks: v.number() })),
    ).toMatchObject({ chain: 'regtest', blocks: 0 });
    console.info(`litecoind: start to first RPC answer ${Math.round(performance.now() - tStart)} ms`);
    expect(await rpc(target, 'getnetworkinfo', [], v.looseObject({ subversion: v.string() }))).toMatchObject({
      subversion: expect.stringMatching(/LitecoinCore:0\.21/),
    });
    expect(await rpc(target, 'getblockcount', [], v.number())).toBe(0);
    await ensureWallet(target, 'miner');
    expect(await mineTo(target, 5)).toBe(5);
    expect(await rpc(target, 'getblockcount', [], v.number())).toBe(5);
    // conmon writes the log file a moment after the daemon prints.
    await expect
      .poll(() => engine.logs(id, 500), { timeout: 10_000 })
      .toMatch(/UpdateTip: new best=[0-9a-f]{64} height=5/);

    await engine.stop(id, 30);
    const stopped = await engine.inspect(id);
    expect(stopped.state).toBe('exited');
    expect(stopped.exitCode).toBe(0); // SIGTERM reached litecoind, which shut down cleanly
    await expect.poll(() => engine.logs(id, 50), { timeout: 10_000 }).toMatch(/Shutdown: done/);

    await engine.destroy(id);
    expect((await engine.inspect(id)).state).toBe('missing');
    expect(await volumeExists(volumeName(id))).toBe(false);
  }, 90_000);

  it("lists only this platform host's containers and explains what it cannot do", async () => {
    const ours = nodeId('ours');
    await create(busyboxSpec(ours));
    const before = await docker.getContainer(containerName(ours)).inspect();
    await engine.create(busyboxSpec(ours)); // idempotent: the container is kept
    expect((await docker.getContainer(containerName(ours)).inspect()).Id).toBe(before.Id);

    // Another platform host sharing this docker host, and a container nobody here made.
    const otherEngine = dockerEngine({ url: pm().socketUrl, hostId: 'other-host', log });
    const theirs = nodeId('theirs');
    await otherEngine.create(busyboxSpec(theirs));
    const foreign = await docker.createContainer({
      name: `foreign-${crypto.randomBytes(4).toString('hex')}`,
      Image: BUSYBOX_IMAGE,
      Cmd: ['/data', '8080'],
    });
    try {
      const listed = await engine.list();
      expect(listed).toContain(ours);
      expect(listed).not.toContain(theirs);
      expect(await otherEngine.list()).toEqual([theirs]);
      expect(listed.every((n) => !n.startsWith('foreign'))).toBe(true);
    } finally {
      await foreign.remove({ force: true });
      await otherEngine.destroy(theirs);
      await otherEngine.close();
    }

    // A container that merely has our naming is not ours to adopt.
    const squatter = nodeId('squat');
    const squat = await docker.createContainer({
      name: containerName(squatter),
      Image: BUSYBOX_IMAGE,
      Cmd: ['/data', '8080'],
    });
    try {
      await expect(engine.create(busyboxSpec(squatter))).rejects.toThrow(/was not created by Nodekeep/);
    } finally {
      await squat.remove({ force: true });
    }

    const unknown = nodeId('unknown');
    expect((await engine.inspect(unknown)).state).toBe('missing');
    await expect(engine.logs(unknown)).rejects.toThrow(
      `node ${unknown} has no container on docker host ${pm().socketUrl}`,
    );
    await expect(engine.start(unknown)).rejects.toThrow(
      `node ${unknown} has no container on docker host ${pm().socketUrl}`,
    );
    await expect(engine.rpcEndpoint(unknown)).rejects.toThrow(/has no container/);
    await engine.destroy(unknown);

    const noImage = nodeId('noimage');
    await expect(
      engine.create({ ...busyboxSpec(noImage), program: 'localhost/nodekeep-test/absent:1' }),
    ).rejects.toThrow(`image localhost/nodekeep-test/absent:1 not found on docker host ${pm().socketUrl}`);
    expect(await volumeExists(volumeName(noImage))).toBe(false); // no half-made node left behind

    expect(() => dockerEngine({ url: 'ftp://example', hostId: HOST_ID, log })).toThrow(
      /is not unix:\/\/\/path.sock or tcp:\/\/host:port/,
    );
    const gone = dockerEngine({ url: `unix://${pm().dir}/no-such.sock`, hostId: HOST_ID, log });
    await expect(gone.list()).rejects.toThrow(
      `docker host unix://${pm().dir}/no-such.sock unreachable: connect ENOENT`,
    );
    await expect(gone.inspect('x')).rejects.toThrow(/unreachable/);
    await gone.close();
  });

  it("publishes a masternode's P2P port on its fixed public address, and one address:port holds one node", async () => {
    // The coin's port on the node's own address; loopback and a port the kernel had free stand in for 203.0.113.7:9999.
    const publicPort = await freePort();
    const p2pSpec = (id: string): DaemonSpec => ({
      ...busyboxSpec(id, ['/data', '8080', '', '9999']),
      ports: { rpc: 8080, p2p: 9999 },
      publish: [{ port: 'p2p', hostIps: ['127.0.0.1'], hostPort: publicPort }],
    });
    const id = nodeId('p2p');
    await create(p2pSpec(id));
    const info = await docker.getContainer(containerName(id)).inspect();
    expect(info.HostConfig.PortBindings?.['9999/tcp']).toEqual([{ HostIp: '127.0.0.1', HostPort: String(publicPort) }]);
    // The RPC port: loopback, at a port the runtime picks (Podman picks it at create).
    expect(info.HostConfig.PortBindings?.['8080/tcp']).toEqual([
      { HostIp: '127.0.0.1', HostPort: expect.not.stringMatching(new RegExp(`^${publicPort}$`)) },
    ]);
    await engine.start(id);
    // The network reaches the daemon at address:port; the platform's RPC stays on its own binding.
    await expect
      .poll(() => fetchText(`http://127.0.0.1:${publicPort}/index.html`), { timeout: 10_000 })
      .toMatch(/^hello from /);
    const rpcEp = await engine.rpcEndpoint(id);
    expect(rpcEp.port).not.toBe(publicPort);
    await expect
      .poll(() => fetchText(`http://${rpcEp.host}:${rpcEp.port}/index.html`), { timeout: 10_000 })
      .toMatch(/^hello from /);

    // A second node of the same coin on the same address:port cannot start: placement must not send one there.
    const twin = nodeId('p2p-twin');
    await create(p2pSpec(twin));
    await expect(engine.start(twin)).rejects.toThrow(/address already in use|port is already allocated|bind/i);

    // Where the host has an IPv6, the same port is published there too.
    const dual = nodeId('p2p-v6');
    const v6Port = await freePort();
    await create({ ...p2pSpec(dual), publish: [{ port: 'p2p', hostIps: ['127.0.0.1', '::1'], hostPort: v6Port }] });
    const dualBindings = (await docker.getContainer(containerName(dual)).inspect()).HostConfig.PortBindings?.[
      '9999/tcp'
    ] as Array<{ HostIp: string; HostPort: string }>;
    expect([...dualBindings].sort((a, b) => (a.HostIp < b.HostIp ? -1 : 1))).toEqual([
      { HostIp: '127.0.0.1', HostPort: String(v6Port) },
      { HostIp: '::1', HostPort: String(v6Port) },
    ]);
    await engine.start(dual);
    // Reaching it over IPv6 also needs an IPv6-enabled container network, which this test's Podman does not have.
    await expect
      .poll(() => fetchText(`http://127.0.0.1:${v6Port}/index.html`), { timeout: 10_000 })
      .toMatch(/^hello from /);

    const bad = nodeId('p2p-bad');
    await expect(
      engine.create({ ...p2pSpec(bad), publish: [{ port: 'p2p', hostIps: [], hostPort: publicPort }] }),
    ).rejects.toThrow(/no public address/);
    await expect(
      engine.create({ ...p2pSpec(bad), publish: [{ port: 'nope', hostIps: ['127.0.0.1'], hostPort: publicPort }] }),
    ).rejects.toThrow(/is not among its ports/);
  });

  it("reports the free disk of the runtime's volumes folder", async () => {
    const disk = await engine.disk!();
    // Its volumes folder once a volume was made, else its storage root: both on this machine.
    expect([path.join(pm().dir, 'storage', 'volumes'), path.join(pm().dir, 'storage')]).toContain(disk?.path);
    const st = fs.statfsSync(disk!.path);
    expect(disk?.totalBytes).toBe(st.blocks * st.bsize);
    // Other writers on the machine move it a little between the two reads.
    expect(Math.abs(disk!.freeBytes - st.bavail * st.bsize)).toBeLessThan(512 * 1024 * 1024);
    // Reached over TCP (a remote host): its folders are not ours to statfs; Podman's own figures for its storage.
    const relay = net.createServer((c) => {
      const up = net.connect(pm().socketPath);
      c.pipe(up).pipe(c);
      c.on('error', () => up.destroy());
      up.on('error', () => c.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
    const remote = dockerEngine({
      url: `tcp://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
      hostId: HOST_ID,
      log,
    });
    try {
      const far = await remote.disk!();
      expect(far?.path).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+ .*\/storage/);
      const root = fs.statfsSync(path.join(pm().dir, 'storage'));
      expect(far?.totalBytes).toBe(root.blocks * root.bsize);
      // Podman counts used space from its own view (free blocks, not those free to us): within a few percent.
      expect(Math.abs(far!.freeBytes - root.bfree * root.bsize)).toBeLessThan(0.02 * far!.totalBytes);
    } finally {
      await remote.close();
      relay.close();
    }

    // An unreachable host says so, as every other call does.
    const gone = dockerEngine({ url: `unix://${path.join(pm().dir, 'no.sock')}`, hostId: HOST_ID, log });
    await expect(gone.disk!()).rejects.toThrow(/unreachable/);
    await gone.close();
  });

  it('stops a daemon promptly: the init passes SIGTERM on', async () => {
    const id = nodeId('stop');
    await create(busyboxSpec(id));
    await engine.start(id);
    await expect.poll(async () => (await engine.inspect(id)).state).toBe('running');
    const ep = await engine.rpcEndpoint(id);
    await expect.poll(() => fetchText(`http://${ep.host}:${ep.port}/index.html`), { timeout: 10_000 }).toBeTruthy();
    // A long timeout: without an init, httpd as PID 1 ignores SIGTERM and this would wait it out.
    const t0 = performance.now();
    await engine.stop(id, 25);
    console.info(`stop with a 25 s timeout took ${Math.round(performance.now() - t0)} ms`);
    const state = await engine.inspect(id);
    expect(state.state).toBe('exited');
    expect(state.exitCode).not.toBe(137); // ended by SIGTERM, not killed at the timeout
  });
});

afterAll(async () => {
  if (!skip) await pm().stop();
});
