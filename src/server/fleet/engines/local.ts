import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../kernel/log';
import {
  diskOf,
  PermanentEngineError,
  plainFileName,
  type CloseOptions,
  type DaemonFile,
  type DiskSpace,
  type DaemonSpec,
  type EngineState,
  type NodeEngine,
  type RpcEndpoint,
} from '../engine';

/** Spec.program value for nodes served by the shared coin-daemon simulator process. */
export const SIMULATOR_PROGRAM = 'simulator';
const SIM_ID = '_simulator';
/** A simulated node's secrets (its Keymanager token), beside its record and never in it. */
const SIM_SECRETS = 'simulated-secrets.json';
/** The simulator answers its admin calls at once; one that does not must not hold a start or a request. */
const SIM_ADMIN_MS = 30_000;
/** Why a simulated node is not served: shown to the operator (and as the node's problem). */
export const SIMULATOR_OFF =
  'The coin-daemon simulator is off on this platform (FLEET_SIMULATOR); simulated nodes are not served.';

/** `aside`: stopped by `setAside` (its node not the database's, or not placed here), not by the fleet. */
type Record_ = { spec: DaemonSpec; desired: 'running' | 'stopped'; aside?: true };
type Proc = {
  pid: number;
  startedAt: number;
  /** Our own child (exit event) or a process adopted from an earlier run of the platform (polled). */
  adopted: boolean;
  exited: Promise<void>;
};

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (exited, not yet reaped) answers kill(0) but is gone.
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** True when `pid` is still the process we started for `marker` (pids get reused). */
function isOurs(pid: number, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each file through a temporary name created with its mode, then renamed: a reader sees
 * the old file or the new one, and a secret is never readable by others for a moment
 * (writeFileSync's mode applies only to a file it creates).
 */
function placeFiles(dir: string, files: DaemonFile[]) {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of files) {
    if (!plainFileName(f.name)) throw new Error(`${JSON.stringify(f.name)} is not a plain file name`);
    const tmp = path.join(dir, `.${f.name}.tmp`);
    fs.rmSync(tmp, { force: true });
    fs.writeFileSync(tmp, f.content, { mode: f.mode, flag: 'wx' });
    fs.renameSync(tmp, path.join(dir, f.name));
  }
}

/**
 * Daemons as supervised child processes on this machine. Each node has a folder with
 * its record (spec and desired state), pid file and log. Children run in their own
 * process group, so a platform crash leaves them running and the next start adopts
 * them (by pid file, checked against /proc) instead of starting duplicates; a clean
 * shutdown stops them and the next start starts them again. A crash is restarted with
 * exponential backoff.
 *
 * Nodes whose program is `simulator` are served by one shared COIN-DAEMON SIMULATOR
 * process (itself supervised like any daemon) and registered with it over HTTP.
 */
export class LocalEngine implements NodeEngine {
  readonly kind = 'local' as const;
  private procs = new Map<string, Proc>();
  private restarts = new Map<string, number>();
  private lastError = new Map<string, string>();
  private timers = new Map<string, NodeJS.Timeout>();
  private pollers = new Map<string, NodeJS.Timeout>();
  private closing = false;

  constructor(private readonly opts: LocalEngineOptions) {
    fs.mkdirSync(opts.dir, { recursive: true });
  }

  private nodeDir(id: string) {
    return path.join(this.opts.dir, id);
  }

  private readRecord(id: string): Record_ | null {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.nodeDir(id), 'node.json'), 'utf8')) as Record_;
    } catch {
      return null;
    }
  }

  /**
   * The record is 0600 (its arguments name the node's data and ports), and a simulated
   * validator's Keymanager token is kept apart from it, in its own 0600 file
   * (SIM_SECRETS) that start() hands to the simulator: a record written by an earlier
   * version with the token in it loses it at its next write.
   */
  private writeRecord(id: string, rec: Record_) {
    fs.mkdirSync(this.nodeDir(id), { recursive: true });
    const token = rec.spec.simulated?.keymanagerToken;
    if (token) {
      placeFiles(this.nodeDir(id), [
        { name: SIM_SECRETS, content: JSON.stringify({ keymanagerToken: token }), mode: 0o600 },
      ]);
      const { keymanagerToken: _, ...simulated } = rec.spec.simulated!;
      rec = { ...rec, spec: { ...rec.spec, simulated } };
    }
    placeFiles(this.nodeDir(id), [{ name: 'node.json', content: JSON.stringify(rec, null, 1), mode: 0o600 }]);
  }

  /** A simulated node's settings with the secrets kept beside its record. */
  private simulatedSettings(
    id: string,
    simulated: NonNullable<DaemonSpec['simulated']>,
  ): NonNullable<DaemonSpec['simulated']> {
    try {
      const secrets = JSON.parse(fs.readFileSync(path.join(this.nodeDir(id), SIM_SECRETS), 'utf8')) as {
        keymanagerToken?: string;
      };
      return { ...simulated, ...(secrets.keymanagerToken ? { keymanagerToken: secrets.keymanagerToken } : {}) };
    } catch {
      return simulated;
    }
  }

  private record(id: string): Record_ {
    const rec = this.readRecord(id);
    if (!rec) throw new Error(`local engine has no node ${id}`);
    return rec;
  }

  // --- the shared simulator ---------------------------------------------------------

  private simSpec(): DaemonSpec {
    const dir = this.nodeDir(SIM_ID);
    const [program, ...pre] = this.opts.simulatorCommand;
    const portFile = path.join(dir, 'port');
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

  private get simulatorOn(): boolean {
    return this.opts.simulator ?? true;
  }

  /** Starts the simulator process if it is not running, and returns its port. */
  private async simulatorPort(): Promise<number> {
    if (!this.simulatorOn) throw new PermanentEngineError(SIMULATOR_OFF);
    if (!this.readRecord(SIM_ID)) this.writeRecord(SIM_ID, { spec: this.simSpec(), desired: 'running' });
    const portFile = path.join(this.nodeDir(SIM_ID), 'port');
    if (!this.procs.has(SIM_ID)) {
      this.writeRecord(SIM_ID, { spec: this.simSpec(), desired: 'running' });
      await this.launch(SIM_ID);
    }
    for (let i = 0; i < 200; i++) {
      if (fs.existsSync(portFile)) {
        const port = Number(fs.readFileSync(portFile, 'utf8'));
        if (port > 0) return port;
      }
      await sleep(25);
    }
    throw new Error(`the coin-daemon simulator did not start; see ${path.join(this.nodeDir(SIM_ID), 'daemon.log')}`);
  }

  /** One admin call to the simulator (our own process); its JSON answer, if any. */
  private async simAdmin(method: string, p: string, body?: unknown): Promise<unknown> {
    const port = await this.simulatorPort();
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

  // --- processes ------------------------------------------------------------------------

  private async launch(id: string): Promise<void> {
    // Nothing starts once a stop has begun (a request or a reconcile pass still under
    // way): after `systemctl kill` or Ctrl-C it would be left running, and a kept daemon
    // is the next start's to start anyway. Not permanent: the node's next attempt runs then.
    if (this.closing) throw new Error(`${id} not started: the server is stopping`);
    const { spec } = this.record(id);
    const dir = this.nodeDir(id);
    // A stale port file would point the nodes at a dead simulator until the new one writes its own.
    if (id === SIM_ID) fs.rmSync(path.join(dir, 'port'), { force: true });
    fs.mkdirSync(spec.dataDir, { recursive: true });
    const out = fs.openSync(path.join(dir, 'daemon.log'), 'a');
    let child;
    try {
      child = spawn(spec.program, spec.args, {
        cwd: dir,
        env: { ...process.env, ...spec.env },
        stdio: ['ignore', out, out],
        detached: true,
      });
    } finally {
      fs.closeSync(out);
    }
    const pid = child.pid;
    if (pid === undefined) {
      const err = await new Promise<Error>((r) => child.once('error', r));
      throw new Error(`cannot start ${spec.program} for ${id}: ${err.message}`);
    }
    child.on('error', (err) => this.lastError.set(id, err.message));
    child.unref();
    fs.writeFileSync(path.join(dir, 'pid'), String(pid));
    const exited = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        this.onExit(id, pid, code, signal);
        resolve();
      }),
    );
    this.procs.set(id, { pid, startedAt: Date.now(), adopted: false, exited });
    if (id === SIM_ID) this.watchSimulatorPort(pid);
    this.opts.log.info('local engine started daemon', { node: id, pid, program: path.basename(spec.program) });
  }

  /** The simulator prints its port once listening; keep it in a file the engine (and its next run) reads. */
  private watchSimulatorPort(pid: number) {
    const logFile = path.join(this.nodeDir(SIM_ID), 'daemon.log');
    const start = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const poll = setInterval(() => {
      if (!this.procs.has(SIM_ID) || this.procs.get(SIM_ID)!.pid !== pid) return clearInterval(poll);
      const text = fs.readFileSync(logFile, 'utf8').slice(start);
      const m = /"listening":(\d+)/.exec(text);
      if (m) {
        fs.writeFileSync(path.join(this.nodeDir(SIM_ID), 'port'), m[1]);
        clearInterval(poll);
      }
    }, 20);
    poll.unref();
  }

  private adopt(id: string, pid: number) {
    let resolve!: () => void;
    const exited = new Promise<void>((r) => (resolve = r));
    const poller = setInterval(() => {
      if (alive(pid)) return;
      clearInterval(poller);
      this.pollers.delete(id);
      this.onExit(id, pid, null, null);
      resolve();
    }, 500);
    poller.unref();
    this.pollers.set(id, poller);
    this.procs.set(id, { pid, startedAt: Date.now(), adopted: true, exited });
    this.opts.log.info('local engine adopted running daemon', { node: id, pid });
  }

  private onExit(id: string, pid: number, code: number | null, signal: NodeJS.Signals | null) {
    const proc = this.procs.get(id);
    if (!proc || proc.pid !== pid) return;
    this.procs.delete(id);
    const rec = this.readRecord(id);
    if (this.closing || !rec || rec.desired !== 'running') return;
    // Unexpected exit: restart with backoff; a minute of good running resets the count.
    const ranMs = Date.now() - proc.startedAt;
    const n = ranMs > 60_000 ? 0 : (this.restarts.get(id) ?? 0);
    this.restarts.set(id, n + 1);
    const delay = Math.min(30_000, (this.opts.backoffMs ?? 500) * 2 ** Math.min(n, 6));
    this.lastError.set(id, `exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    this.opts.log.warn('daemon exited unexpectedly; restarting', {
      node: id,
      pid,
      exit_status: code,
      signal,
      restart: n + 1,
      delay_ms: delay,
    });
    const t = setTimeout(() => {
      this.timers.delete(id);
      if (this.closing || this.readRecord(id)?.desired !== 'running' || this.procs.has(id)) return;
      this.launch(id).catch((err) => {
        this.lastError.set(id, (err as Error).message);
        this.opts.log.error('daemon restart failed', { node: id, error: (err as Error).message });
      });
    }, delay);
    t.unref();
    this.timers.set(id, t);
  }

  /**
   * SIGTERM to the daemon's process group, SIGKILL after `timeoutS`. Waits by polling the
   * pid: our children are unref'd (they must not keep the platform alive), so their exit
   * event alone would not keep this wait alive either.
   */
  private async kill(id: string, timeoutS: number) {
    const proc = this.procs.get(id);
    if (!proc) return;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid, sig);
      } catch {
        // Already gone.
      }
    };
    const gone = async (ms: number) => {
      for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (!alive(proc.pid)) return true;
      return !alive(proc.pid);
    };
    signal('SIGTERM');
    if (!(await gone(timeoutS * 1000))) {
      this.opts.log.warn('daemon ignored SIGTERM; killing it', { node: id, pid: proc.pid, timeout_s: timeoutS });
      signal('SIGKILL');
      await gone(5000);
    }
    // The exit handler may not have run yet; make the bookkeeping match.
    if (this.procs.get(id)?.pid === proc.pid) this.procs.delete(id);
    clearInterval(this.pollers.get(id));
    this.pollers.delete(id);
  }

  /** The pid of the node's daemon when an earlier run left it running (its pid file, checked against /proc). */
  private leftRunning(id: string, rec: Record_): number | null {
    const pidFile = path.join(this.nodeDir(id), 'pid');
    const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
    return pid > 0 && alive(pid) && isOurs(pid, rec.spec.args.join('\0') || rec.spec.program) ? pid : null;
  }

  /**
   * Stops the daemons a server left running when it stopped (SIGTERM keeps them), for
   * the operator's `fleet stop-local` while no server runs. Their records still say
   * running: the next start starts them again.
   */
  async stopLeftRunning(): Promise<string[]> {
    const stopped: string[] = [];
    for (const id of fs.readdirSync(this.opts.dir)) {
      const rec = this.readRecord(id);
      if (!rec || rec.spec.program === SIMULATOR_PROGRAM) continue;
      const pid = this.leftRunning(id, rec);
      if (!pid) continue;
      this.adopt(id, pid);
      stopped.push(id);
    }
    await this.close();
    return stopped;
  }

  // --- NodeEngine -------------------------------------------------------------------------

  /** Adopts daemons left running by an earlier run and starts those that should run. */
  async resume(): Promise<{ adopted: string[]; started: string[] }> {
    const result = { adopted: [] as string[], started: [] as string[] };
    const ids = fs.readdirSync(this.opts.dir).filter((d) => this.readRecord(d));
    // The simulator first: the nodes it serves need it.
    for (const id of [...ids.filter((i) => i === SIM_ID), ...ids.filter((i) => i !== SIM_ID)]) {
      const rec = this.readRecord(id)!;
      if (rec.spec.program === SIMULATOR_PROGRAM || rec.desired !== 'running' || this.procs.has(id)) continue;
      if (id === SIM_ID && !this.simulatorOn) continue;
      const pid = this.leftRunning(id, rec);
      if (pid) {
        this.adopt(id, pid);
        result.adopted.push(id);
      } else {
        await this.launch(id);
        result.started.push(id);
      }
    }
    if (this.procs.has(SIM_ID)) await this.matchSimulator(ids);
    return result;
  }

  /**
   * The simulator keeps its nodes across its own restarts: those set aside leave it, and
   * those to run that it lacks (set aside, then the database's again) are added. Asked at
   * each start, so one that failed is tried again; a failure does not hold the start up.
   */
  private async matchSimulator(ids: string[]): Promise<void> {
    const failed = (err: unknown, node?: string) =>
      this.opts.log.warn('simulator nodes not matched to their records; tried again at the next start', {
        node,
        error: (err as Error).message,
      });
    let served: Set<string>;
    try {
      served = new Set(((await this.simAdmin('GET', '/nodes')) as { nodes: string[] }).nodes);
    } catch (err) {
      return failed(err);
    }
    for (const id of ids) {
      const rec = this.readRecord(id);
      if (!rec || rec.spec.program !== SIMULATOR_PROGRAM) continue;
      try {
        if (rec.aside && served.has(id)) await this.simAdmin('DELETE', `/nodes/${encodeURIComponent(id)}`);
        else if (rec.desired === 'running' && !served.has(id)) await this.start(id);
      } catch (err) {
        failed(err, id);
      }
    }
  }

  async create(spec: DaemonSpec): Promise<void> {
    const { files, ...kept } = spec;
    // Written again by a repeated create (a retried provision), so they match the node's
    // current settings; the record keeps no copy (it is plain JSON beside the log).
    if (files?.length) placeFiles(spec.dataDir, files);
    // A node that is not running takes the new spec, so the record's ports are the ones
    // the files just written name; a running one keeps what it runs with.
    const rec = this.readRecord(spec.nodeId);
    if (rec && (rec.desired === 'running' || this.procs.has(spec.nodeId))) return;
    this.writeRecord(spec.nodeId, { spec: kept, desired: 'stopped' });
  }

  async portsOf(nodeId: string): Promise<Record<string, number> | null> {
    const rec = this.readRecord(nodeId);
    return rec && Object.keys(rec.spec.ports).length ? rec.spec.ports : null;
  }

  async writeFiles(nodeId: string, files: DaemonFile[]): Promise<void> {
    const rec = this.record(nodeId);
    if (rec.spec.program === SIMULATOR_PROGRAM) throw new Error(`node ${nodeId} is simulated: it has no data folder`);
    placeFiles(rec.spec.dataDir, files);
  }

  async start(nodeId: string): Promise<void> {
    const rec = this.record(nodeId);
    this.writeRecord(nodeId, { spec: rec.spec, desired: 'running' });
    if (rec.spec.program === SIMULATOR_PROGRAM) {
      if (!rec.spec.simulated) throw new Error(`node ${nodeId} runs on the simulator but has no simulation settings`);
      await this.simAdmin('POST', '/nodes', {
        nodeId,
        coin: rec.spec.coinId,
        ...this.simulatedSettings(nodeId, rec.spec.simulated),
      });
      return;
    }
    if (!this.procs.has(nodeId)) await this.launch(nodeId);
  }

  async stop(nodeId: string, timeoutS = 20): Promise<void> {
    const rec = this.record(nodeId);
    this.writeRecord(nodeId, { ...rec, desired: 'stopped' });
    clearTimeout(this.timers.get(nodeId));
    // With the simulator off nothing serves the node, so there is nothing to stop.
    if (rec.spec.program === SIMULATOR_PROGRAM) {
      if (this.simulatorOn) await this.simAdmin('DELETE', `/nodes/${encodeURIComponent(nodeId)}`);
      return;
    }
    await this.kill(nodeId, timeoutS);
  }

  async replace(spec: DaemonSpec): Promise<void> {
    const rec = this.record(spec.nodeId);
    const { files, ...kept } = spec;
    const running = rec.desired === 'running';
    if (rec.spec.program === SIMULATOR_PROGRAM) {
      // The simulator takes the new settings in place (start adds the node again, which
      // updates it): stopping would drop the node's chain state, as a real node keeps its chain.
      this.writeRecord(spec.nodeId, { ...rec, spec: kept });
      if (running) await this.start(spec.nodeId);
      return;
    }
    if (running) await this.stop(spec.nodeId);
    if (files?.length) placeFiles(spec.dataDir, files);
    this.writeRecord(spec.nodeId, { spec: kept, desired: 'stopped' });
    if (running) await this.start(spec.nodeId);
  }

  async destroy(nodeId: string): Promise<void> {
    const rec = this.readRecord(nodeId);
    if (!rec) return;
    await this.stop(nodeId, 10);
    fs.rmSync(rec.spec.dataDir, { recursive: true, force: true });
    fs.rmSync(this.nodeDir(nodeId), { recursive: true, force: true });
    this.restarts.delete(nodeId);
    this.lastError.delete(nodeId);
  }

  async inspect(nodeId: string): Promise<EngineState> {
    const rec = this.readRecord(nodeId);
    if (!rec) return { state: 'missing', restarts: 0, startedAt: null, exitCode: null, error: null };
    const sim = rec.spec.program === SIMULATOR_PROGRAM;
    if (sim && !this.simulatorOn)
      return { state: 'exited', restarts: 0, startedAt: null, exitCode: null, error: SIMULATOR_OFF };
    const proc = this.procs.get(sim ? SIM_ID : nodeId);
    const restarts = this.restarts.get(sim ? SIM_ID : nodeId) ?? 0;
    const error = this.lastError.get(sim ? SIM_ID : nodeId) ?? null;
    if (rec.desired !== 'running') return { state: 'created', restarts, startedAt: null, exitCode: null, error };
    if (proc) return { state: 'running', restarts, startedAt: proc.startedAt, exitCode: null, error: null };
    return {
      state: this.timers.has(sim ? SIM_ID : nodeId) ? 'restarting' : 'exited',
      restarts,
      startedAt: null,
      exitCode: null,
      error,
    };
  }

  async logs(nodeId: string, tail = 100): Promise<string> {
    const rec = this.record(nodeId);
    const file = path.join(this.nodeDir(rec.spec.program === SIMULATOR_PROGRAM ? SIM_ID : nodeId), 'daemon.log');
    if (!fs.existsSync(file)) return '';
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-tail).join('\n');
  }

  async rpcEndpoint(nodeId: string, port?: string): Promise<RpcEndpoint> {
    const { spec } = this.record(nodeId);
    // The simulator answers every API of a node (a validator's Keymanager API too) on its path.
    if (spec.program === SIMULATOR_PROGRAM)
      return { host: '127.0.0.1', port: await this.simulatorPort(), path: `/n/${encodeURIComponent(nodeId)}` };
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
      const rec = this.readRecord(id)!;
      const node = nodes.get(id);
      if (node?.placed) {
        if (!rec.aside) continue;
        this.writeRecord(id, { spec: rec.spec, desired: node.live ? 'running' : 'stopped' });
        result.back.push(id);
        continue;
      }
      const pid = rec.spec.program === SIMULATOR_PROGRAM ? null : this.leftRunning(id, rec);
      // Stopped by the fleet (or set aside before): nothing runs, and it stays as it is.
      if (rec.desired !== 'running' && !pid) continue;
      this.writeRecord(id, { spec: rec.spec, desired: 'stopped', aside: true });
      if (pid) {
        this.adopt(id, pid);
        stops.push(this.kill(id, 20));
      }
      result.setAside.push(id);
    }
    await Promise.all(stops);
    return result;
  }

  /** Chain-wide RPC of a simulated coin, before any node of it exists (SIN's burn check). */
  async simulatorCoinEndpoint(coinId: string): Promise<RpcEndpoint> {
    if (!/^[a-z0-9]{1,32}$/.test(coinId))
      throw new Error(`coin id ${JSON.stringify(coinId)} cannot name a simulated chain`);
    return { host: '127.0.0.1', port: await this.simulatorPort(), path: `/c/${coinId}` };
  }

  /** The disk under the nodes' folders (chain data lives there). */
  disk(): Promise<DiskSpace> {
    return diskOf(this.opts.dir);
  }

  async list(): Promise<string[]> {
    return fs.readdirSync(this.opts.dir).filter((d) => d !== SIM_ID && this.readRecord(d));
  }

  /**
   * From the first moment of a stop: a daemon that exits is not restarted. `systemctl
   * kill` signals the server and its daemons at once; a daemon restarted while the
   * server drained would be left running after the operator stopped everything.
   */
  stopRestarting(): void {
    this.closing = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * Stops every daemon (they start again at the next `resume`), or with `keepDaemons`
   * lets go of them: they run on in their own process groups and the next `resume`
   * adopts them by pid file. Either way nothing of this engine restarts anything after.
   */
  async close({ keepDaemons = false }: CloseOptions = {}): Promise<void> {
    this.stopRestarting();
    for (const p of this.pollers.values()) clearInterval(p);
    if (keepDaemons) {
      this.opts.log.info('local engine leaves its daemons running', { daemons: this.procs.size });
      this.procs.clear();
      this.pollers.clear();
      return;
    }
    await Promise.all([...this.procs.keys()].map((id) => this.kill(id, 20)));
  }

  /**
   * A simulated node restarted with its owner's operator key (quick setup): what writing
   * the key into a real node's config and restarting it does. Real daemons get the key
   * through their config (the profile's operator_key_option), not here.
   */
  async simulatorOperatorKey(nodeId: string, secret: string): Promise<void> {
    const rec = this.record(nodeId);
    if (rec.spec.program !== SIMULATOR_PROGRAM)
      throw new Error(`node ${nodeId} is not simulated: write its operator key into its config and restart it`);
    await this.simAdmin('POST', `/nodes/${encodeURIComponent(nodeId)}/operator-key`, { secret });
  }

  /** For tests and the operator: the pid serving a node (the simulator's for simulated nodes). */
  pidOf(nodeId: string): number | null {
    const rec = this.readRecord(nodeId);
    if (!rec) return null;
    return this.procs.get(rec.spec.program === SIMULATOR_PROGRAM ? SIM_ID : nodeId)?.pid ?? null;
  }
}
