import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from '../../kernel/log';
import {
  diskOf,
  type CloseOptions,
  type DaemonFile,
  type DiskSpace,
  type DaemonSpec,
  type EngineState,
  type NodeEngine,
  type RpcEndpoint,
} from '../engine';
import { SIM_ID, SIMULATOR_OFF, SIMULATOR_PROGRAM, SimulatorHost } from '../simulator/host';
import { extractSnapshot } from '../bootstrap';
import { placeFiles } from './local-files';
import { ProcessSupervisor } from './local-process';
import { NodeRecords } from './local-records';

// A spec names the simulator as its program; its callers build specs for this engine.
export { SIMULATOR_PROGRAM };

export type LocalEngineOptions = {
  /** Folder for node records, pid files and logs (DATA_DIR/fleet/local). */
  dir: string;
  log: Logger;
  /** How the simulator is started: [program, ...args] before `--state <file> --port <n>`. */
  simulatorCommand: string[];
  /** May the simulator run (FLEET_SIMULATOR)? Off: simulated nodes are refused and not served. Default on. */
  simulator?: boolean;
  /** First restart delay; doubles per crash up to 30 s, reset after a minute of running. */
  backoffMs?: number;
};

/**
 * Daemons as supervised child processes on this machine (ProcessSupervisor), each node
 * with a folder holding its record (NodeRecords). A clean shutdown stops them and the
 * next start starts them again; a service restart keeps them and the next start adopts
 * them.
 *
 * Nodes whose program is `simulator` are served by one shared COIN-DAEMON SIMULATOR
 * process (SimulatorHost: itself supervised like any daemon) and registered with it over HTTP.
 * This class only routes each NodeEngine call to the one or the other.
 */
export class LocalEngine implements NodeEngine {
  readonly kind = 'local' as const;
  private readonly records: NodeRecords;
  private readonly processes: ProcessSupervisor;
  private readonly simulator: SimulatorHost;

  constructor(private readonly opts: LocalEngineOptions) {
    this.records = new NodeRecords(opts.dir);
    this.processes = new ProcessSupervisor(this.records, opts.log, opts.backoffMs);
    this.simulator = new SimulatorHost(this.records, this.processes, {
      command: opts.simulatorCommand,
      on: opts.simulator ?? true,
      log: opts.log,
    });
  }

  /** The process slot a node's daemon runs in: its own, or the simulator's. */
  private slotOf(rec: { spec: DaemonSpec }, nodeId: string) {
    return rec.spec.program === SIMULATOR_PROGRAM ? SIM_ID : nodeId;
  }

  /**
   * Stops the daemons a server left running when it stopped (SIGTERM keeps them), for
   * the operator's `fleet stop-local` while no server runs. Their records still say
   * running: the next start starts them again.
   */
  async stopLeftRunning(): Promise<string[]> {
    const stopped: string[] = [];
    for (const id of fs.readdirSync(this.opts.dir)) {
      const rec = this.records.read(id);
      if (!rec || rec.spec.program === SIMULATOR_PROGRAM) continue;
      const pid = this.processes.leftRunning(id, rec);
      if (!pid) continue;
      this.processes.adopt(id, pid);
      stopped.push(id);
    }
    await this.close();
    return stopped;
  }

  // --- NodeEngine -------------------------------------------------------------------------

  /** Adopts daemons left running by an earlier run and starts those that should run. */
  async resume(): Promise<{ adopted: string[]; started: string[] }> {
    const result = { adopted: [] as string[], started: [] as string[] };
    const ids = this.records.ids();
    // The simulator first: the nodes it serves need it.
    for (const id of [...ids.filter((i) => i === SIM_ID), ...ids.filter((i) => i !== SIM_ID)]) {
      const rec = this.records.read(id)!;
      if (rec.spec.program === SIMULATOR_PROGRAM || rec.desired !== 'running' || this.processes.has(id)) continue;
      if (id === SIM_ID && !this.simulator.on) continue;
      const pid = this.processes.leftRunning(id, rec);
      if (pid) {
        this.processes.adopt(id, pid);
        result.adopted.push(id);
      } else {
        await this.processes.launch(id);
        result.started.push(id);
      }
    }
    if (this.processes.has(SIM_ID)) await this.simulator.match(ids, (id) => this.start(id));
    return result;
  }

  async create(spec: DaemonSpec): Promise<void> {
    const { files, seed, ...kept } = spec;
    const rec = this.records.read(spec.nodeId);
    // Only into a node made now: a repeated create must not put old blocks under a chain.
    if (seed && !rec) await extractSnapshot(seed, spec.dataDir);
    // Written again by a repeated create (a retried provision), so they match the node's
    // current settings; the record keeps no copy (it is plain JSON beside the log).
    if (files?.length) placeFiles(spec.dataDir, files);
    // A node that is not running takes the new spec, so the record's ports are the ones
    // the files just written name; a running one keeps what it runs with.
    if (rec && (rec.desired === 'running' || this.processes.has(spec.nodeId))) return;
    this.records.write(spec.nodeId, { spec: kept, desired: 'stopped' });
  }

  async portsOf(nodeId: string): Promise<Record<string, number> | null> {
    const rec = this.records.read(nodeId);
    return rec && Object.keys(rec.spec.ports).length ? rec.spec.ports : null;
  }

  async writeFiles(nodeId: string, files: DaemonFile[]): Promise<void> {
    const rec = this.records.get(nodeId);
    if (rec.spec.program === SIMULATOR_PROGRAM) throw new Error(`node ${nodeId} is simulated: it has no data folder`);
    placeFiles(rec.spec.dataDir, files);
  }

  async start(nodeId: string): Promise<void> {
    const rec = this.records.get(nodeId);
    this.records.write(nodeId, { spec: rec.spec, desired: 'running' });
    if (rec.spec.program === SIMULATOR_PROGRAM) return this.simulator.serve(nodeId, rec.spec);
    if (!this.processes.has(nodeId)) await this.processes.launch(nodeId);
  }

  async stop(nodeId: string, timeoutS = 20): Promise<void> {
    const rec = this.records.get(nodeId);
    this.records.write(nodeId, { ...rec, desired: 'stopped' });
    this.processes.cancelRestart(nodeId);
    // A simulated node counts as stopped from its record (inspect); the simulator keeps its
    // chain and registration, as a stopped daemon keeps its data: a restart resumes them.
    if (rec.spec.program === SIMULATOR_PROGRAM) return;
    await this.processes.kill(nodeId, timeoutS);
  }

  async replace(spec: DaemonSpec): Promise<void> {
    const rec = this.records.get(spec.nodeId);
    const { files, ...kept } = spec;
    const running = rec.desired === 'running';
    if (rec.spec.program === SIMULATOR_PROGRAM) {
      // The simulator takes the new settings in place (start adds the node again, which
      // updates it): stopping would drop the node's chain state, as a real node keeps its chain.
      this.records.write(spec.nodeId, { ...rec, spec: kept });
      if (running) await this.start(spec.nodeId);
      return;
    }
    if (running) await this.stop(spec.nodeId);
    if (files?.length) placeFiles(spec.dataDir, files);
    this.records.write(spec.nodeId, { spec: kept, desired: 'stopped' });
    if (running) await this.start(spec.nodeId);
  }

  async destroy(nodeId: string): Promise<void> {
    const rec = this.records.read(nodeId);
    if (!rec) return;
    await this.stop(nodeId, 10);
    // With the simulator off nothing serves the node, so there is nothing to drop.
    if (rec.spec.program === SIMULATOR_PROGRAM && this.simulator.on) await this.simulator.drop(nodeId);
    fs.rmSync(rec.spec.dataDir, { recursive: true, force: true });
    fs.rmSync(this.records.nodeDir(nodeId), { recursive: true, force: true });
    this.processes.forget(nodeId);
  }

  async inspect(nodeId: string): Promise<EngineState> {
    const rec = this.records.read(nodeId);
    if (!rec) return { state: 'missing', restarts: 0, startedAt: null, exitCode: null, error: null };
    if (rec.spec.program === SIMULATOR_PROGRAM && !this.simulator.on)
      return { state: 'exited', restarts: 0, startedAt: null, exitCode: null, error: SIMULATOR_OFF };
    // A simulated node is as well as the simulator's process.
    const { running, restarts, error, restarting } = this.processes.status(this.slotOf(rec, nodeId));
    if (rec.desired !== 'running') return { state: 'created', restarts, startedAt: null, exitCode: null, error };
    if (running) return { state: 'running', restarts, startedAt: running.startedAt, exitCode: null, error: null };
    return { state: restarting ? 'restarting' : 'exited', restarts, startedAt: null, exitCode: null, error };
  }

  async logs(nodeId: string, tail = 100): Promise<string> {
    const rec = this.records.get(nodeId);
    if (rec.spec.program === SIMULATOR_PROGRAM && this.simulator.on) return this.simulator.nodeLog(nodeId, tail);
    const file = this.records.logFile(this.slotOf(rec, nodeId));
    if (!fs.existsSync(file)) return '';
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-tail).join('\n');
  }

  async rpcEndpoint(nodeId: string, port?: string): Promise<RpcEndpoint> {
    const { spec } = this.records.get(nodeId);
    if (spec.program === SIMULATOR_PROGRAM) return this.simulator.nodeEndpoint(nodeId);
    const p = spec.ports[port ?? spec.rpcPort];
    if (p === undefined) throw new Error(`node ${nodeId} has no port "${port}"`);
    return { host: '127.0.0.1', port: p };
  }

  /**
   * Before `resume`: stops the daemons the database has not placed. After a restore of an
   * older backup the engine still holds the nodes made since (unknown to the database now)
   * and those placed since (known, but not placed yet, so their ports may go to another
   * node). Their records say stopped and `aside`; their files stay, for the operator. A node
   * set aside that the database has live again (a newer backup restored after) runs again;
   * one it has placed but not live yet is started by its provisioning as usual.
   * `nodes`: each node the database has, by id, with whether it is placed on this machine
   * and whether live (runtime's placedHere).
   */
  async setAside(
    nodes: ReadonlyMap<string, { placed: boolean; live: boolean }>,
  ): Promise<{ setAside: string[]; back: string[] }> {
    const result = { setAside: [] as string[], back: [] as string[] };
    const stops: Promise<void>[] = [];
    for (const id of await this.list()) {
      const rec = this.records.read(id)!;
      const node = nodes.get(id);
      if (node?.placed) {
        if (!rec.aside) continue;
        this.records.write(id, { spec: rec.spec, desired: node.live ? 'running' : 'stopped' });
        result.back.push(id);
        continue;
      }
      const pid = rec.spec.program === SIMULATOR_PROGRAM ? null : this.processes.leftRunning(id, rec);
      // Stopped by the fleet (or set aside before): nothing runs, and it stays as it is.
      if (rec.desired !== 'running' && !pid) continue;
      this.records.write(id, { spec: rec.spec, desired: 'stopped', aside: true });
      if (pid) {
        this.processes.adopt(id, pid);
        stops.push(this.processes.kill(id, 20));
      }
      result.setAside.push(id);
    }
    await Promise.all(stops);
    return result;
  }

  /** Chain-wide RPC of a simulated coin, before any node of it exists (SIN's burn check). */
  simulatorCoinEndpoint(coinId: string): Promise<RpcEndpoint> {
    return this.simulator.coinEndpoint(coinId);
  }

  /** The disk under the nodes' folders (chain data lives there). */
  disk(): Promise<DiskSpace> {
    return diskOf(this.opts.dir);
  }

  async memory(): Promise<number | null> {
    return os.totalmem();
  }

  async program(program: string): Promise<{ id: string } | null> {
    try {
      await fs.promises.access(program, fs.constants.X_OK);
      const st = await fs.promises.stat(program);
      return st.isFile() ? { id: `${st.size}-${Math.floor(st.mtimeMs)}` } : null;
    } catch {
      return null;
    }
  }

  runOnce(program: string, args: string[], timeoutMs: number): Promise<{ exitCode: number | null; output: string }> {
    return new Promise((resolve) => {
      execFile(program, args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ exitCode: err?.killed ? null : code, output: `${stdout}${stderr}` });
      });
    });
  }

  async list(): Promise<string[]> {
    return this.records.ids().filter((d) => d !== SIM_ID);
  }

  /**
   * From the first moment of a stop: a daemon that exits is not restarted. `systemctl
   * kill` signals the server and its daemons at once; a daemon restarted while the
   * server drained would be left running after the operator stopped everything.
   */
  stopRestarting(): void {
    this.processes.stopRestarting();
  }

  /**
   * Stops every daemon (they start again at the next `resume`), or with `keepDaemons`
   * lets go of them: they run on in their own process groups and the next `resume`
   * adopts them by pid file. Either way nothing of this engine restarts anything after.
   */
  async close({ keepDaemons = false }: CloseOptions = {}): Promise<void> {
    await this.processes.close(keepDaemons);
  }

  /**
   * A simulated node restarted with its owner's operator key (quick setup): what writing
   * the key into a real node's config and restarting it does. Real daemons get the key
   * through their config (the profile's operator_key_option), not here.
   */
  async simulatorOperatorKey(nodeId: string, secret: string): Promise<void> {
    const rec = this.records.get(nodeId);
    if (rec.spec.program !== SIMULATOR_PROGRAM)
      throw new Error(`node ${nodeId} is not simulated: write its operator key into its config and restart it`);
    await this.simulator.operatorKey(nodeId, secret);
  }

  /**
   * A simulated validator's deposit seen by its beacon chain: no real deposit can reach a
   * simulated chain, so the demo makes it here (the launchpad's part).
   */
  async simulatorDeposit(nodeId: string): Promise<void> {
    const rec = this.records.get(nodeId);
    if (rec.spec.program !== SIMULATOR_PROGRAM) throw new Error(`node ${nodeId} is not simulated: its deposit is real`);
    await this.simulator.deposit(nodeId);
  }

  /** For tests and the operator: the pid serving a node (the simulator's for simulated nodes). */
  pidOf(nodeId: string): number | null {
    const rec = this.records.read(nodeId);
    if (!rec) return null;
    return this.processes.pidOf(this.slotOf(rec, nodeId));
  }
}
