import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../kernel/log';
import type { NodeRecords, NodeRecord } from './local-records';
import { alive, isOurs } from './pids';

type Proc = {
  pid: number;
  startedAt: number;
  /** Our own child (exit event) or a process adopted from an earlier run of the platform (polled). */
  adopted: boolean;
  exited: Promise<void>;
};

/** What one process needs done around its every launch, restarts included (the simulator's port file). */
export type LaunchHooks = { beforeSpawn(): void; spawned(pid: number): void };

/** What the supervisor knows of one process: running or not, and how it went. */
export type ProcessStatus = {
  running: { pid: number; startedAt: number } | null;
  restarts: number;
  error: string | null;
  /** Crashed, and a restart is due. */
  restarting: boolean;
};

/**
 * The daemons of the local engine as supervised child processes, by node id, as the
 * node records say (spec, desired state). Children run in their own process group, so
 * a platform crash leaves them running and the next start adopts them (by pid file,
 * checked against /proc) instead of starting duplicates. A crash is restarted with
 * exponential backoff.
 */
export class ProcessSupervisor {
  private procs = new Map<string, Proc>();
  private restarts = new Map<string, number>();
  private lastError = new Map<string, string>();
  private timers = new Map<string, NodeJS.Timeout>();
  private pollers = new Map<string, NodeJS.Timeout>();
  private hooks = new Map<string, LaunchHooks>();
  private closing = false;

  constructor(
    private readonly records: NodeRecords,
    private readonly log: Logger,
    /** First restart delay; doubles per crash up to 30 s, reset after a minute of running. */
    private readonly backoffMs = 500,
  ) {}

  /** `hooks` run at each launch of `id`'s process. */
  onLaunch(id: string, hooks: LaunchHooks) {
    this.hooks.set(id, hooks);
  }

  has(id: string): boolean {
    return this.procs.has(id);
  }

  pidOf(id: string): number | null {
    return this.procs.get(id)?.pid ?? null;
  }

  status(id: string): ProcessStatus {
    const proc = this.procs.get(id);
    return {
      running: proc ? { pid: proc.pid, startedAt: proc.startedAt } : null,
      restarts: this.restarts.get(id) ?? 0,
      error: this.lastError.get(id) ?? null,
      restarting: this.timers.has(id),
    };
  }

  /** The restart a crash scheduled does not happen (a stop asked for). */
  cancelRestart(id: string) {
    clearTimeout(this.timers.get(id));
  }

  /** Forgets a destroyed node's crash count and last error. */
  forget(id: string) {
    this.restarts.delete(id);
    this.lastError.delete(id);
  }

  async launch(id: string): Promise<void> {
    // Nothing starts once a stop has begun (a request or a reconcile pass still under
    // way): after `systemctl kill` or Ctrl-C it would be left running, and a kept daemon
    // is the next start's to start anyway. Not permanent: the node's next attempt runs then.
    if (this.closing) throw new Error(`${id} not started: the server is stopping`);
    const { spec } = this.records.get(id);
    const dir = this.records.nodeDir(id);
    const hooks = this.hooks.get(id);
    hooks?.beforeSpawn();
    fs.mkdirSync(spec.dataDir, { recursive: true });
    const out = fs.openSync(this.records.logFile(id), 'a');
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
    hooks?.spawned(pid);
    this.log.info('local engine started daemon', { node: id, pid, program: path.basename(spec.program) });
  }

  adopt(id: string, pid: number) {
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
    this.log.info('local engine adopted running daemon', { node: id, pid });
  }

  private onExit(id: string, pid: number, code: number | null, signal: NodeJS.Signals | null) {
    const proc = this.procs.get(id);
    if (!proc || proc.pid !== pid) return;
    this.procs.delete(id);
    const rec = this.records.read(id);
    if (!rec || rec.desired !== 'running') return;
    if (this.closing) {
      // Said, so that an operator (and the sigterm test) sees the exit was seen and left alone.
      this.log.info('daemon exited while the server stops; not restarted', {
        node: id,
        pid,
        exit_status: code,
        signal,
      });
      return;
    }
    // Unexpected exit: restart with backoff; a minute of good running resets the count.
    const ranMs = Date.now() - proc.startedAt;
    const n = ranMs > 60_000 ? 0 : (this.restarts.get(id) ?? 0);
    this.restarts.set(id, n + 1);
    const delay = Math.min(30_000, this.backoffMs * 2 ** Math.min(n, 6));
    this.lastError.set(id, `exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    this.log.warn('daemon exited unexpectedly; restarting', {
      node: id,
      pid,
      exit_status: code,
      signal,
      restart: n + 1,
      delay_ms: delay,
    });
    const t = setTimeout(() => {
      this.timers.delete(id);
      if (this.closing || this.records.read(id)?.desired !== 'running' || this.procs.has(id)) return;
      this.launch(id).catch((err) => {
        this.lastError.set(id, (err as Error).message);
        this.log.error('daemon restart failed', { node: id, error: (err as Error).message });
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
  async kill(id: string, timeoutS: number) {
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
      this.log.warn('daemon ignored SIGTERM; killing it', { node: id, pid: proc.pid, timeout_s: timeoutS });
      signal('SIGKILL');
      await gone(5000);
    }
    // The exit handler may not have run yet; make the bookkeeping match.
    if (this.procs.get(id)?.pid === proc.pid) this.procs.delete(id);
    clearInterval(this.pollers.get(id));
    this.pollers.delete(id);
  }

  /** The pid of the node's daemon when an earlier run left it running (its pid file, checked against /proc). */
  leftRunning(id: string, rec: NodeRecord): number | null {
    const pidFile = path.join(this.records.nodeDir(id), 'pid');
    const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
    return pid > 0 && alive(pid) && isOurs(pid, rec.spec.args.join('\0') || rec.spec.program) ? pid : null;
  }

  /** From now on no process is started or restarted (see LocalEngine.stopRestarting). */
  stopRestarting(): void {
    this.closing = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Stops every process, or with `keepDaemons` lets go of them (they run on in their own process groups). */
  async close(keepDaemons: boolean): Promise<void> {
    this.stopRestarting();
    for (const p of this.pollers.values()) clearInterval(p);
    if (keepDaemons) {
      this.log.info('local engine leaves its daemons running', { daemons: this.procs.size });
      this.procs.clear();
      this.pollers.clear();
      return;
    }
    await Promise.all([...this.procs.keys()].map((id) => this.kill(id, 20)));
  }
}
