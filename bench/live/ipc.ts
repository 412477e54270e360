import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

type Handlers = Record<string, (args: any) => unknown>;
type Reply = { id: number; result?: unknown; error?: string };

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes on this machine. */
export const wallMs = () => performance.timeOrigin + performance.now();

/** Resident set size of a process, in KiB (from /proc). */
export const rssKiB = (pid: number | 'self') =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/**
 * A benchmark helper in its own Node process (its own event loop and memory), driven
 * by request/answer messages over the IPC channel. Resolves once the child says ready.
 */
export async function startChild(file: string, env: Record<string, string> = {}) {
  const proc: ChildProcess = fork(file, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let exited: Error | undefined;
  proc.on('message', (m: Reply) => {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(m.error));
    else w.resolve(m.result);
  });
  proc.once('exit', (code, signal) => {
    exited = new Error(`${file} exited (${code ?? signal})`);
    for (const w of waiting.values()) w.reject(exited);
    waiting.clear();
  });
  const call = <T = any>(cmd: string, args: unknown = {}): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = ++next;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      proc.send({ id, cmd, args });
    });
  };
  await call('ready');
  return {
    pid: proc.pid!,
    call,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => proc.once('exit', r));
      await call('stop').catch(() => {});
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** The child's side: answers each request with its handler's result; `stop` runs `onStop` and exits. */
export function serveParent(handlers: Handlers, onStop: () => Promise<void> | void = () => {}): void {
  const all: Handlers = {
    ready: () => true,
    stop: async () => {
      await onStop();
      setImmediate(() => process.exit(0));
      return true;
    },
    ...handlers,
  };
  process.on('message', async (m: { id: number; cmd: string; args: unknown }) => {
    try {
      const fn = all[m.cmd];
      if (!fn) throw new Error(`unknown command ${m.cmd}`);
      process.send!({ id: m.id, result: await fn(m.args) });
    } catch (err) {
      process.send!({ id: m.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  process.once('disconnect', () => process.exit(1));
}

/** Memory of this process after two forced collections. */
export function memory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rssKiB: rssKiB('self'), heapUsed: m.heapUsed, external: m.external, gc: Boolean(gc) };
}

/** User + system CPU time of a process so far, in milliseconds (from /proc; 10 ms steps). */
export function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(rest[11]) + Number(rest[12])) * 1000) / 100;
}
