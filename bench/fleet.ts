import fs from 'node:fs';
import path from 'node:path';
import { findUserByLogin } from '../src/server/auth/queries';
import { observe } from '../src/server/fleet/observe';
import { requestNode } from '../src/server/nodes/lifecycle';
import { LocalEngine, SIMULATOR_PROGRAM } from '../src/server/fleet/engines/local';
import { dockerEngine } from '../src/server/fleet/engines/docker';
import { simulatorCommand } from '../src/server/fleet/engines/registry';
import { observeBitcoin } from '../src/server/fleet/daemons/bitcoin';
import type { DaemonSpec, NodeEngine } from '../src/server/fleet/engine';
import { createLogger } from '../src/server/kernel/log';
import { realDaemonSpec, waitFor } from '../test/support/daemons';
import { LITECOIND_ENTRYPOINT, litecoindRootfs } from '../test/support/images/litecoind';
import { startPodman } from '../test/support/podman';
import { startTestServer, stopTestServer, tempDataDir } from '../test/support/server';
import { machine, writeSection } from './report';

const log = createLogger('error');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** Milliseconds from create+start to the daemon's first good RPC answer. */
async function createToAnswer(engine: NodeEngine, spec: DaemonSpec, ask: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await engine.create(spec);
  await engine.start(spec.nodeId);
  await waitFor(async () => ask().then(() => true), 60_000, `${spec.nodeId} to answer`);
  const ms = performance.now() - t0;
  await engine.destroy(spec.nodeId);
  return ms;
}

async function startTimes() {
  const root = tempDataDir('nodekeep-bench-');
  const rows: string[] = [];
  const local = new LocalEngine({ dir: path.join(root, 'local'), log, simulatorCommand: simulatorCommand() });
  try {
    const sim = (id: string): DaemonSpec => ({
      nodeId: id,
      ownerId: 1,
      coinId: 'dash',
      plan: 'cloud',
      program: SIMULATOR_PROGRAM,
      args: [],
      ports: {},
      rpcPort: 'rpc',
      dataDir: path.join(root, id),
      limits: { memoryBytes: 0, cpus: 0 },
      simulated: { rpc: 'dash', blockTimeS: 150, syncSeconds: 20 },
    });
    const askSim = (id: string) => async () =>
      observeBitcoin({ endpoint: await local.rpcEndpoint(id), timeoutMs: 2000 }, 'dash', true);
    console.log('fleet bench: simulator start times');
    const cold = await createToAnswer(local, sim('cold'), askSim('cold'));
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push(await createToAnswer(local, sim(`warm${i}`), askSim(`warm${i}`)));
    rows.push(
      `| simulator, first node (starts the simulator process) | local | ${cold.toFixed(0)} |`,
      `| simulator, further nodes (median of 5) | local | ${median(warm).toFixed(0)} |`,
    );

    console.log('fleet bench: litecoind start times');
    const ltc: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { spec, auth } = await realDaemonSpec('litecoind-regtest', `ltc${i}`, path.join(root, 'ltc'));
      ltc.push(
        await createToAnswer(local, spec, async () =>
          observeBitcoin({ endpoint: await local.rpcEndpoint(spec.nodeId), auth, timeoutMs: 2000 }, 'none', false),
        ),
      );
    }
    rows.push(`| litecoind 0.21 regtest (median of 3) | local | ${median(ltc).toFixed(0)} |`);
  } finally {
    await local.close();
  }

  console.log('fleet bench: podman');
  const podman = await startPodman();
  if ('skip' in podman) rows.push(`| litecoind in a container | docker (Podman) | skipped: ${podman.skip} |`);
  else {
    const docker = dockerEngine({ url: podman.socketUrl, hostId: 'bench', log });
    try {
      const image = 'localhost/nodekeep/litecoind:0.21';
      await podman.buildImage(image, litecoindRootfs(fs.mkdtempSync(path.join(root, 'rootfs-'))), {
        entrypoint: LITECOIND_ENTRYPOINT,
      });
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { spec, auth } = await realDaemonSpec('litecoind-regtest', `dltc${i}`, path.join(root, 'dltc'));
        const args = [
          `-regtest=1`,
          '-server=1',
          `-rpcuser=${auth.user}`,
          `-rpcpassword=${auth.password}`,
          '-rpcbind=0.0.0.0',
          '-rpcallowip=0.0.0.0/0',
          '-rpcport=20000',
          '-datadir=/data',
          '-printtoconsole',
        ];
        const dspec = { ...spec, program: image, args, ports: { rpc: 20000 }, dataDir: '/data' };
        times.push(
          await createToAnswer(docker, dspec, async () =>
            observeBitcoin({ endpoint: await docker.rpcEndpoint(dspec.nodeId), auth, timeoutMs: 2000 }, 'none', false),
          ),
        );
      }
      rows.push(
        `| litecoind 0.21 regtest in a container (median of 3) | docker (Podman 4.3) | ${median(times).toFixed(0)} |`,
      );
    } finally {
      await docker.close();
      await podman.stop();
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  return rows;
}

/** 1,000 simulated nodes placed through the fleet and watched by the monitor of a real server. */
async function density(n = 1000) {
  const dataDir = tempDataDir('nodekeep-density-');
  const profiles = path.join(dataDir, 'daemons.json');
  const shipped = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8'));
  fs.writeFileSync(profiles, JSON.stringify(shipped));
  // Checks as fast as the monitor can go: every node due every second, 64 in flight.
  const s = await startTestServer(
    {
      LOG_LEVEL: 'error',
      DAEMON_PROFILES_FILE: profiles,
      MONITOR_NODE_SECONDS: '1',
      MONITOR_NETWORK_SECONDS: '1',
      MONITOR_CONCURRENCY: '64',
    },
    { dataDir },
  );
  try {
    await fetch(`${s.url}/public_api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'density', email: 'density@example.test', password: 'density-1' }),
    });
    const user = (await findUserByLogin(s.deps.db, 'density'))!;
    await s.deps.db
      .updateTable('hosts')
      .set({ cloud_slots: n + 10, dedicated_slots: n + 10 })
      .execute();
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const coins = ['dash', 'firo', 'pivx', 'bdx', 'eth', 'rtm', 'crw', 'nrg'];
    const t0 = performance.now();
    for (let i = 0; i < n; i++)
      await requestNode(
        s.deps.db,
        { profiles: s.fleet.profiles, log, simulator: s.fleet.simulator },
        {
          userId: user.id,
          coinId: coins[i % coins.length],
          plan: coins[i % coins.length] === 'eth' ? 'dedicated' : 'cloud',
        },
      );
    const placedMs = performance.now() - t0;
    void s.fleet.reconcile();
    await waitFor(
      async () =>
        Number(
          (
            await s.deps.db
              .selectFrom('node_view')
              .select((eb) => eb.fn.countAll().as('c'))
              .where('provisioned_at', 'is not', null)
              .executeTakeFirstOrThrow()
          ).c,
        ) >= n,
      300_000,
      'all nodes started',
    );
    const startedMs = performance.now() - t0;
    const metric = async () =>
      (await s.fleet.metrics.checkSeconds.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    await new Promise((r) => setTimeout(r, 5000)); // settle
    const c0 = await metric();
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    await new Promise((r) => setTimeout(r, 30_000));
    const checks = (await metric()) - c0;
    const wallS = (performance.now() - w0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const simPid = Number(fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'pid'), 'utf8'));
    const simRss = rssKiB(simPid);
    (globalThis as { gc?: () => void }).gc?.();
    const heapPerNode = (process.memoryUsage().heapUsed - heapBefore) / n;
    const perMinute = (checks / wallS) * 60;
    const perMinutePerCore = perMinute / (cpuS / wallS);
    return [
      `| nodes placed through the fleet (requestNode, one SQLite transaction each) | ${n} in ${(placedMs / 1000).toFixed(1)} s |`,
      `| all ${n} started on the simulator (control loop) | ${(startedMs / 1000).toFixed(1)} s after the first request |`,
      `| node checks (engine inspect + RPC + SQLite write) | ${perMinute.toFixed(0)} per minute (${(checks / wallS).toFixed(0)}/s over ${wallS.toFixed(0)} s) |`,
      `| platform CPU while checking | ${((cpuS / wallS) * 100).toFixed(0)} % of one core → ${perMinutePerCore.toFixed(0)} checks per minute per core of the platform |`,
      `| monitor pass over all ${n} nodes (nodekeep_monitor_cycle_seconds) | ${(await s.fleet.metrics.cycleSeconds.get()).values[0]?.value.toFixed(2)} s (nodes are due every second; a pass cannot be shorter) |`,
      `| simulator memory (RSS, one process for all nodes) | ${(simRss / 1024).toFixed(0)} MiB → ${(simRss / n).toFixed(1)} KiB per node |`,
      `| platform heap growth${(globalThis as { gc?: () => void }).gc ? ' (after a forced GC)' : ' (no forced GC: indicative only)'} | ${(heapPerNode / 1024).toFixed(1)} KiB per node |`,
    ];
  } finally {
    await stopTestServer(s);
  }
}

export async function benchFleet() {
  const starts = await startTimes();
  console.log('fleet bench: density');
  const dens = await density();
  writeSection(
    'fleet',
    `## Fleet: create-to-answer time and 1,000 simulated nodes

${new Date().toISOString().slice(0, 10)} on ${machine()}.

### Create to first RPC answer (one node)
Engine create + start until the daemon's first good RPC reply (\`getblockchaininfo\`/\`getnetworkinfo\`). Goals: simulator under 1 s, real litecoind under 3 s.

| daemon | engine | ms |
|---|---|---|
${starts.join('\n')}

### 1,000 simulated nodes on this machine
A real server (fleet, control loop, monitor) with every node due every second and 64 checks in flight, measured over 30 s after all nodes started. Goal: 10,000 nodes polled per minute on one core. The simulator (another process) shares the machine's two cores with the platform.

| what | result |
|---|---|
${dens.join('\n')}`,
  );
  console.log([...starts, ...dens].join('\n'));
}
