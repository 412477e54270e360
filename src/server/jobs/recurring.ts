import { Cron } from 'croner';
import { outsideLogScope, type Logger } from '../kernel/log';
import { errorText, runWithDeadline } from './attempt';

/**
 * Runs in a row that failed before a recurring job counts as failing (/readyz, the console
 * overview): an interval job's next tick is its retry, so one failure is noise and three
 * (minutes, for most) are not; a cron job runs hours or a day apart, so two (one could be a
 * passing lock) already mean hours of work not done.
 */
export const FAILING_AFTER = { interval: 3, cron: 2 } as const;

/** A recurring job whose last runs failed (see FAILING_AFTER). */
export type FailingJob = { name: string; failures: number; last_error: string; since: string };

export type RecurringSpec = {
  /** Run every this many ms (the next tick is skipped while a run is still going). */
  everyMs?: number;
  /** Or on a cron pattern (croner; six fields allow seconds). */
  cron?: string;
  /** With `cron`: start each run after a random delay up to this long (spreads installs). */
  jitterMs?: number;
  /** Also run once when the runner starts. */
  atStart?: boolean;
  deadlineMs: number;
  run(signal: AbortSignal): Promise<void>;
};

/**
 * One recurring job inside this process: no row, no write while idle. Single flight:
 * a trigger during a run asks for one more run after it (however many triggers came);
 * a periodic tick during a run is dropped. A failed run is logged; the next tick is its retry.
 */
export class Recurring {
  private running: Promise<void> | undefined;
  private again: { promise: Promise<void>; resolve: () => void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private jitter: NodeJS.Timeout | undefined;
  private cron: Cron | undefined;
  private stopped = false;
  private started = false;
  /** When the current run began (while running), and when the last one ended. */
  private runStartedAt = 0;
  private lastEndAt = 0;
  /** Failed runs in a row, the last one's error, and when the first of them ended. */
  private failures = 0;
  private lastError = '';
  private failingSince = 0;

  constructor(
    readonly name: string,
    private readonly spec: RecurringSpec,
    private readonly log: Logger,
    /** Fires at shutdown: a running attempt is aborted then, not at its deadline. */
    private readonly shutdown?: AbortSignal,
  ) {
    if (!spec.everyMs === !spec.cron) throw new Error(`job ${name}: give everyMs or cron`);
    if (spec.cron) new Cron(spec.cron, { paused: true }).stop(); // a bad pattern fails at registration
  }

  start(): void {
    this.started = true;
    this.lastEndAt = Date.now();
    if (this.spec.everyMs) {
      this.timer = setInterval(() => void this.tick(), this.spec.everyMs);
      this.timer.unref();
    } else {
      this.cron = new Cron(this.spec.cron!, { unref: true }, () => {
        if (!this.spec.jitterMs) return void this.tick();
        clearTimeout(this.jitter);
        this.jitter = setTimeout(() => void this.tick(), Math.random() * this.spec.jitterMs);
        this.jitter.unref();
      });
    }
    if (this.spec.atStart) void this.trigger();
  }

  /** Run now, or once more after the current run; resolves when that run is over. */
  trigger(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) return this.begin();
    if (!this.again) {
      let resolve!: () => void;
      this.again = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    }
    return this.again.promise;
  }

  /** Stops the schedule; resolves when the current run is over (bounded by its deadline). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.jitter);
    this.cron?.stop();
    await this.running;
    this.again?.resolve();
  }

  /**
   * Whether the loop turns (for /readyz): null when it does, else why not. An interval job
   * must have run within a few of its intervals (a run may take up to its deadline); a cron
   * job only needs its schedule.
   */
  health(now = Date.now()): string | null {
    if (this.stopped) return 'stopped';
    if (!this.started) return 'not started';
    if (this.running)
      return now - this.runStartedAt > this.spec.deadlineMs + 5_000
        ? `a run has taken ${Math.round((now - this.runStartedAt) / 1000)} s, past its deadline`
        : null;
    if (this.spec.everyMs && now - this.lastEndAt > this.spec.everyMs * 3 + 5_000)
      return `no run for ${Math.round((now - this.lastEndAt) / 1000)} s`;
    return null;
  }

  /** Whether the job keeps failing (FAILING_AFTER runs in a row), and how. */
  failing(): FailingJob | null {
    const after = this.spec.cron ? FAILING_AFTER.cron : FAILING_AFTER.interval;
    if (this.failures < after) return null;
    return {
      name: this.name,
      failures: this.failures,
      last_error: this.lastError,
      since: new Date(this.failingSince).toISOString(),
    };
  }

  private tick(): void {
    if (!this.running && !this.stopped) void this.begin();
  }

  private begin(): Promise<void> {
    // A request may trigger a run; the run is the whole loop's, not that request's.
    const run = outsideLogScope(() =>
      runWithDeadline(this.spec.deadlineMs, (signal) => this.spec.run(signal), this.shutdown),
    )
      .then(
        () => {
          this.failures = 0;
        },
        (err) => {
          this.lastError = errorText(err);
          if (this.failures++ === 0) this.failingSince = Date.now();
          this.log.error('job failed', { job: this.name, error: this.lastError, in_a_row: this.failures });
        },
      )
      .finally(() => {
        this.running = undefined;
        this.lastEndAt = Date.now();
        const waiting = this.again;
        this.again = undefined;
        if (waiting) {
          if (this.stopped) waiting.resolve();
          else void this.begin().then(waiting.resolve);
        }
      });
    this.runStartedAt = Date.now();
    this.running = run;
    return run;
  }
}
