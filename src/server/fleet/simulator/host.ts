import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../kernel/log';
import { PermanentEngineError, type DaemonSpec, type RpcEndpoint } from '../engine';
import type { ProcessSupervisor } from '../engines/local-process';
import type { NodeRecords } from '../engines/local-records';

/** Spec.program value for nodes served by the shared coin-daemon simulator process. */
export const SIMULATOR_PROGRAM = 'simulator';
/** The simulator process's own slot among the local engine's nodes (a folder, a record, a pid). */
export const SIM_ID = '_simulator';
/** The simulator answers its admin calls at once; one that does not must not hold a start or a request. */
const SIM_ADMIN_MS = 30_000;
/** Why a simulated node is not served: shown to the operator (and as the node's problem). */
export const SIMULATOR_OFF =
  'The coin-daemon simulator is off on this platform (FLEET_SIMULATOR); simulated nodes are not served.';

export type SimulatorHostOptions = {
  /** How the simulator is started: [program, ...args] before `--state <file> --port <n>`. */
  command: string[];
  /** May the simulator run (FLEET_SIMULATOR)? Off: simulated nodes are refused and not served. */
  on: boolean;
  log: Logger;
};

/**
 * The one COIN-DAEMON SIMULATOR process that serves every simulated node of the local
 * engine: run by the engine's supervisor like any daemon (in the SIM_ID slot), and told
 * over its HTTP admin API which nodes to serve. It keeps its nodes' chain state in its
 * own state file, across its restarts.
 */
export class SimulatorHost {
  constructor(
    private readonly records: NodeRecords,
    private readonly processes: ProcessSupervisor,
    private readonly opts: SimulatorHostOptions,
  ) {
    processes.onLaunch(SIM_ID, {
      // A stale port file would point the nodes at a dead simulator until the new one writes its own.
      beforeSpawn: () => fs.rmSync(this.portFile(), { force: true }),
      spawned: (pid) => this.watchPort(pid),
    });
  }

  get on(): boolean {
    return this.opts.on;
  }

  private portFile() {
    return path.join(this.records.nodeDir(SIM_ID), 'port');
  }

  /** The simulator as a daemon spec, on the port it had last (0 the first time: any free port). */
  private spec(): DaemonSpec {
    const dir = this.records.nodeDir(SIM_ID);
    const [program, ...pre] = this.opts.command;
    const portFile = this.portFile();
    const lastPort = fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').trim() : '0';
    return {
      nodeId: SIM_ID,
      ownerId: 0,
      coinId: 'simulator',
      plan: 'cloud',
      program,
      args: [...pre, '--state', path.join(dir, 'state.json'), '--port', lastPort],
      ports: { rpc: Number(lastPort) },
      rpcPort: 'rpc',
      dataDir: dir,
      limits: { memoryBytes: 0, cpus: 0 },
    };
  }

  /** Starts the simulator process if it is not running, and returns its port. */
  private async port(): Promise<number> {
    if (!this.on) throw new PermanentEngineError(SIMULATOR_OFF);
    if (!this.records.read(SIM_ID)) this.records.write(SIM_ID, { spec: this.spec(), desired: 'running' });
    const portFile = this.portFile();
    if (!this.processes.has(SIM_ID)) {
      this.records.write(SIM_ID, { spec: this.spec(), desired: 'running' });
      await this.processes.launch(SIM_ID);
    }
    for (let i = 0; i < 200; i++) {
      if (fs.existsSync(portFile)) {
        const port = Number(fs.readFileSync(portFile, 'utf8'));
        if (port > 0) return port;
      }
      await sleep(25);
    }
    throw new Error(`the coin-daemon simulator did not start; see ${this.records.logFile(SIM_ID)}`);
  }

  /** The simulator prints its port once listening; keep it in a file the engine (and its next run) reads. */
  private watchPort(pid: number) {
    const logFile = this.records.logFile(SIM_ID);
    const start = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const poll = setInterval(() => {
      if (this.processes.pidOf(SIM_ID) !== pid) return clearInterval(poll);
      const text = fs.readFileSync(logFile, 'utf8').slice(start);
      const m = /"listening":(\d+)/.exec(text);
      if (m) {
        fs.writeFileSync(this.portFile(), m[1]);
        clearInterval(poll);
      }
    }, 20);
    poll.unref();
  }

  /** One admin call to the simulator (our own process); its JSON answer, if any. */
  private async admin(method: string, p: string, body?: unknown): Promise<unknown> {
    const port = await this.port();
    const res = await fetch(`http://127.0.0.1:${port}/admin${p}`, {
      signal: AbortSignal.timeout(SIM_ADMIN_MS),
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404))
      throw new Error(`simulator refused ${method} ${p}: ${await res.text()}`);
    return res.ok ? res.json().catch(() => undefined) : undefined;
  }

  /** The simulator serves the node with `spec`'s settings from now on (added, or updated in place). */
  async serve(nodeId: string, spec: DaemonSpec): Promise<void> {
    if (!spec.simulated) throw new Error(`node ${nodeId} runs on the simulator but has no simulation settings`);
    await this.admin('POST', '/nodes', {
      nodeId,
      coin: spec.coinId,
      ...this.records.simulatedSettings(nodeId, spec.simulated),
    });
  }

  /** The simulator stops serving the node (and drops its chain state); one it does not serve is no error. */
  async drop(nodeId: string): Promise<void> {
    await this.admin('DELETE', `/nodes/${encodeURIComponent(nodeId)}`);
  }

  /**
   * The simulator keeps its nodes across its own restarts: those set aside leave it, and
   * those to run that it lacks (set aside, then the database's again) are added by
   * `start`. Asked at each start, so one that failed is tried again; a failure does not
   * hold the start up.
   */
  async match(ids: string[], start: (nodeId: string) => Promise<void>): Promise<void> {
    const failed = (err: unknown, node?: string) =>
      this.opts.log.warn('simulator nodes not matched to their records; tried again at the next start', {
        node,
        error: (err as Error).message,
      });
    let served: Set<string>;
    try {
      served = new Set(((await this.admin('GET', '/nodes')) as { nodes: string[] }).nodes);
    } catch (err) {
      return failed(err);
    }
    for (const id of ids) {
      const rec = this.records.read(id);
      if (!rec || rec.spec.program !== SIMULATOR_PROGRAM) continue;
      try {
        if (rec.aside && served.has(id)) await this.drop(id);
        else if (rec.desired === 'running' && !served.has(id)) await start(id);
      } catch (err) {
        failed(err, id);
      }
    }
  }

  /** The simulator answers every API of a node (a validator's Keymanager API too) on its path. */
  async nodeEndpoint(nodeId: string): Promise<RpcEndpoint> {
    return { host: '127.0.0.1', port: await this.port(), path: `/n/${encodeURIComponent(nodeId)}` };
  }

  /** Chain-wide RPC of a simulated coin, before any node of it exists (SIN's burn check). */
  async coinEndpoint(coinId: string): Promise<RpcEndpoint> {
    if (!/^[a-z0-9]{1,32}$/.test(coinId))
      throw new Error(`coin id ${JSON.stringify(coinId)} cannot name a simulated chain`);
    return { host: '127.0.0.1', port: await this.port(), path: `/c/${coinId}` };
  }

  /** The simulated beacon chain sees the validator's deposit (the demo's stand-in for the launchpad). */
  async deposit(nodeId: string): Promise<void> {
    await this.admin('POST', `/nodes/${encodeURIComponent(nodeId)}/register`);
  }

  /** The node's synthetic daemon log (node-log.ts), its last `tail` lines. */
  async nodeLog(nodeId: string, tail: number): Promise<string> {
    // Asked of the running simulator only: reading a log never starts one (the CLI's
    // engine, `fleet logs`, runs in a process that does not own it).
    const portFile = this.portFile();
    const port = fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8')) : 0;
    if (!(port > 0)) throw new Error('the coin-daemon simulator is not running');
    const res = await fetch(`http://127.0.0.1:${port}/admin/nodes/${encodeURIComponent(nodeId)}/log/${tail}`, {
      signal: AbortSignal.timeout(SIM_ADMIN_MS),
    });
    if (!res.ok) throw new Error(`simulator refused the log of ${nodeId}: ${await res.text()}`);
    return ((await res.json()) as { lines: string[] }).lines.join('\n');
  }

  /** The node restarted with its owner's operator key (quick setup). */
  async operatorKey(nodeId: string, secret: string): Promise<void> {
    await this.admin('POST', `/nodes/${encodeURIComponent(nodeId)}/operator-key`, { secret });
  }
}
