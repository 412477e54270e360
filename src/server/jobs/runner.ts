import type { z } from 'zod';
import { queuedJobPayloads, type RecurringJobName } from '../../shared/jobs';
import type { DB } from '../db/open';
import type { JobRow } from '../db/schema';
import { outsideLogScope, withLogFields, type Logger } from '../kernel/log';
import { ABORT_GRACE_MS, backoffMs, errorText, runWithDeadline } from './attempt';
import { claimJob, claimableJobs, failJob, finishJob, requestIdOfPayload, retryJob } from './queries';
import { insertJob, jobPayloadText, type EnqueueOptions } from './queue';
import { Recurring, type FailingJob, type RecurringSpec } from './recurring';

type Schemas = Record<string, z.ZodType>;

export type JobContext = {
  /** Aborted at the attempt's deadline. */
  signal: AbortSignal;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** When the next attempt would run if this one failed now. */
  retryAt(): number;
};

export type QueuedSpec<P> = {
  deadlineMs: number;
  maxAttempts: number;
  /** First retry after this long, then twice as long each time (capped at an hour). */
  backoffMs: number;
  run(payload: P, ctx: JobContext): Promise<void>;
  /**
   * Called once when the job fails for good, also when the runner gave up without
   * calling `run` (attempts used up by crashed owners): the domain records the failure
   * (a mail marked failed) instead of leaving its own row pending forever.
   */
  onGiveUp?(payload: P, error: string): Promise<void>;
};

export type RunnerOptions = {
  /** How often to look for queued jobs written by another process (a read). */
  pollMs?: number;
  /** Queued jobs in flight at once: one hung job holds one slot. */
  concurrency?: number;
};

/**
 * The server's one way to run background work (src/server/jobs/README.md).
 * Queued jobs are rows of `jobs` (retries with backoff, a deadline per attempt, a lease
 * so a crashed owner's job runs again, single flight per key). Recurring jobs live in
 * memory (interval or cron, single flight, a deadline) and cost nothing while idle.
 */
export class JobRunner<M extends Schemas = typeof queuedJobPayloads, R extends string = RecurringJobName> {
  /** Identifies this runner's claims; a restarted server is a new owner. */
  readonly owner = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  private handlers = new Map<string, QueuedSpec<any>>();
  private recurring = new Map<string, Recurring>();
  private inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private retryTimers = new Set<NodeJS.Timeout>();
  private looking: Promise<void> | undefined;
  /** When a look for due jobs last completed. */
  private lastLookAt = 0;
  private lookAgain = false;
  private started = false;
  private stopped = false;
  /** Aborts running attempts when a shutdown's grace period is over. */
  private readonly shutdown = new AbortController();
  private readonly pollMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly db: DB,
    private readonly log: Logger,
    private readonly schemas: M = queuedJobPayloads as unknown as M,
    opts: RunnerOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000;
    this.concurrency = opts.concurrency ?? 4;
  }

  /** Registers the handler of a queued job. */
  handle<N extends keyof M & string>(name: N, spec: QueuedSpec<z.infer<M[N]>>): void {
    this.handlers.set(name, spec);
  }

  /** Registers a recurring job; it starts with the runner. */
  every(name: R, spec: RecurringSpec): void {
    if (this.recurring.has(name)) throw new Error(`job ${name} is already scheduled`);
    const job = new Recurring(name, spec, this.log, this.shutdown.signal);
    this.recurring.set(name, job);
    if (this.started && !this.stopped) job.start();
  }

  /** Runs a recurring job now (or once more after its current run). */
  trigger(name: R): Promise<void> {
    const job = this.recurring.get(name);
    if (!job) throw new Error(`no recurring job ${name}`);
    return job.trigger();
  }

  /** Queues a job and looks for due work at once. For a job in a transaction, use `enqueueJob` in it and `poke` after commit. */
  async enqueue<N extends keyof M & string>(name: N, payload: z.input<M[N]>, opts?: EnqueueOptions): Promise<boolean> {
    const added = await insertJob(this.db, name, jobPayloadText(payload as object), opts);
    if (added) void this.poke();
    return added;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.lastLookAt = Date.now();
    for (const job of this.recurring.values()) job.start();
    this.timer = setInterval(() => void this.poke(), this.pollMs);
    this.timer.unref();
    void this.poke();
  }

  /**
   * Claims due queued jobs up to the free slots; resolves once they are claimed (not
   * finished). Concurrent pokes share one look, and one more follows.
   */
  poke(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.looking) {
      this.lookAgain = true;
      return this.looking;
    }
    // A request that queued work pokes; the look serves every due job, not that request.
    this.looking = outsideLogScope(() => this.look())
      .catch((err) => this.log.error('job runner: looking for due jobs failed', { error: errorText(err) }))
      .finally(() => {
        this.looking = undefined;
        if (this.lookAgain) {
          this.lookAgain = false;
          void this.poke();
        }
      });
    return this.looking;
  }

  /**
   * Whether the runner turns (for /readyz): null when it looks for due jobs every poll,
   * else why not. `recurring`: the same for one of its recurring jobs.
   */
  health(recurring?: R, now = Date.now()): string | null {
    if (recurring) {
      const job = this.recurring.get(recurring);
      return job ? job.health(now) : 'not scheduled';
    }
    if (this.stopped) return 'stopped';
    if (!this.started) return 'not started';
    const since = now - this.lastLookAt;
    return since > Math.max(5 * this.pollMs, 5_000) ? `no look for due jobs in ${Math.round(since / 1000)} s` : null;
  }

  /** The recurring jobs that keep failing (recurring.ts FAILING_AFTER), for /readyz and the console. */
  failing(): FailingJob[] {
    return [...this.recurring.values()].map((j) => j.failing()).filter((f) => f !== null);
  }

  /** Whether a queued job of this name has a handler here. */
  handles(name: keyof M & string): boolean {
    return this.handlers.has(name);
  }

  /** Queued jobs in flight now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * No new work; running jobs get `graceMs` to finish, then are aborted (and given up
   * on a moment later), so a SIGTERM never waits out a five-minute deadline. A queued
   * job cut short runs again after its lease.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const t of this.retryTimers) clearTimeout(t);
    await this.looking;
    const all = Promise.all([...[...this.recurring.values()].map((j) => j.stop()), ...this.inFlight]);
    let grace: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (grace = setTimeout(resolve, graceMs)));
    await Promise.race([all, timedOut]);
    clearTimeout(grace);
    this.shutdown.abort(new Error('the server is shutting down'));
    await all;
  }

  private async look(): Promise<void> {
    const now = Date.now();
    const due = await claimableJobs(this.db, [...this.handlers.keys()], now, this.concurrency - this.inFlight.size);
    this.lastLookAt = Date.now();
    for (const { id, name } of due) {
      if (this.stopped || this.inFlight.size >= this.concurrency) return;
      const spec = this.handlers.get(name)!;
      const row = await claimJob(this.db, id, this.owner, now, now + spec.deadlineMs + ABORT_GRACE_MS * 2);
      if (!row) continue; // another process took it
      // The attempt's log lines carry the id of the request that queued the job, if one did.
      const requestId = requestIdOfPayload(safeJson(row.payload));
      const p = withLogFields(requestId ? { request_id: requestId } : {}, () => this.attempt(row, spec)).finally(() => {
        this.inFlight.delete(p);
        void this.poke(); // a slot is free
      });
      this.inFlight.add(p);
    }
  }

  private async attempt(row: JobRow, spec: QueuedSpec<unknown>): Promise<void> {
    const claim = { id: row.id, owner: this.owner, attempts: row.attempts };
    const fields = { job: row.name, job_id: row.id, attempt: row.attempts };
    try {
      if (row.attempts > spec.maxAttempts) throw new GiveUp(row.last_error ?? 'attempts exhausted');
      const parsed = this.schemas[row.name].safeParse(parseJson(row.payload));
      if (!parsed.success) throw new GiveUp(`bad payload: ${parsed.error.message}`);
      const retryAt = () => Date.now() + backoffMs(row.attempts, spec.backoffMs);
      await runWithDeadline(
        spec.deadlineMs,
        (signal) => spec.run(parsed.data, { signal, attempt: row.attempts, maxAttempts: spec.maxAttempts, retryAt }),
        this.shutdown.signal,
      );
    } catch (err) {
      const error = errorText(err);
      if (err instanceof GiveUp || row.attempts >= spec.maxAttempts) {
        await failJob(this.db, claim, error).catch((e) =>
          this.log.error('job runner: recording a failure failed', { ...fields, error: errorText(e) }),
        );
        const payload = this.schemas[row.name].safeParse(safeJson(row.payload));
        if (spec.onGiveUp && payload.success) {
          await spec
            .onGiveUp(payload.data, error)
            .catch((e) => this.log.error('job runner: give-up hook failed', { ...fields, error: errorText(e) }));
        }
        this.log.error('job failed for good', { ...fields, error });
        return;
      }
      const delay = backoffMs(row.attempts, spec.backoffMs);
      await retryJob(this.db, claim, Date.now() + delay, error).catch((e) =>
        this.log.error('job runner: recording a retry failed', { ...fields, error: errorText(e) }),
      );
      this.log.warn('job failed; will retry', { ...fields, error, retry_in_ms: delay });
      // A timer may fire a millisecond early by the wall clock; look just after the row is due.
      const t = setTimeout(() => {
        this.retryTimers.delete(t);
        void this.poke();
      }, delay + 5);
      t.unref();
      this.retryTimers.add(t);
      return;
    }
    // Outside the try: a failure to record a success must not run the job again (a mail twice).
    await finishJob(this.db, claim).catch((e) =>
      this.log.error('job runner: recording a success failed', { ...fields, error: errorText(e) }),
    );
  }
}

class GiveUp extends Error {}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new GiveUp('payload is not JSON');
  }
}
