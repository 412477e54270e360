/**
 * Process-wide admission for API requests, on top of each payer's budget
 * (call-budget.ts). Budgets are per payer, so many payers (100 guest addresses, an IPv6
 * /48's many /64s, many accounts) multiplied them: 300 connections each had a request
 * being built at once, and /healthz waited 14 s behind them. A pool lets `running`
 * requests be handled at once; the others wait in a line of at most `waitCalls` calls
 * (a batch of n counts n), at most `waitCallsPerPayer` of them one payer's, taken round
 * robin between payers (each waiting payer gets one request in before any gets a
 * second). Past that a request is refused at once, before any work: a pause would hold
 * a timer and a connection per refusal, and the line already holds the work there is
 * room for. A request waits at most `maxWaitMs`, then is refused the same way.
 */
export type PoolRule = { running: number; waitCalls: number; waitCallsPerPayer: number; maxWaitMs: number };

export const ADMISSION_POOLS = {
  /**
   * All guests and public calls together (payers that are an address, not an account).
   * Four at once keeps the loop's turns short whatever they ask (a batch of 20 coin
   * tables is 470 KB of JSON); the line holds "100 requests at once from 100 addresses".
   */
  guest: { running: 4, waitCalls: 240, waitCallsPerPayer: 40, maxWaitMs: 10_000 },
  /** Signed-in accounts: their own pool, so no number of guests can keep a customer waiting. */
  account: { running: 16, waitCalls: 2000, waitCallsPerPayer: 200, maxWaitMs: 10_000 },
} satisfies Record<string, PoolRule>;

/** Entered: `leave` when the answer is built. Refused: the line is full or the wait ran out. */
export type Entry = { ok: true; leave: () => void } | { ok: false; clientGone: boolean };

type Waiter = { calls: number; admit: () => void };

export class AdmissionPool {
  private running = 0;
  /** Requests let in during this turn of the event loop (reset by `pump`). */
  private startedThisTurn = 0;
  private scheduled = false;
  private waitingCalls = 0;
  /** Each payer's waiting requests, oldest first; the Map's order is the round robin's. */
  private lines = new Map<string, { calls: number; waiters: Waiter[] }>();
  constructor(readonly rule: PoolRule) {}

  /**
   * Waits for a place for a request of `calls` calls of `payerKey`; refused at once
   * (`ok: false` without waiting) when the line has no room for them. `clientSignal` is
   * asked only when the request has to wait: making a request's AbortSignal costs the
   * node adapter an AbortController, which the usual request (a free place) never needs.
   */
  enter(payerKey: string, calls: number, clientSignal?: () => AbortSignal): Entry | Promise<Entry> {
    if (this.running < this.rule.running && this.startedThisTurn < this.rule.running && !this.lines.size)
      return { ok: true, leave: this.slot() };
    const line = this.lines.get(payerKey);
    if (this.waitingCalls + calls > this.rule.waitCalls || (line?.calls ?? 0) + calls > this.rule.waitCallsPerPayer)
      return { ok: false, clientGone: false };
    const signal = clientSignal?.();
    return new Promise<Entry>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        calls,
        admit: () => {
          cleanup();
          resolve({ ok: true, leave: this.slot() });
        },
      };
      const give = (clientGone: boolean) => () => {
        cleanup();
        this.drop(payerKey, waiter);
        resolve({ ok: false, clientGone });
      };
      const onAbort = give(true);
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) return resolve({ ok: false, clientGone: true });
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(give(false), this.rule.maxWaitMs);
      const l = line ?? { calls: 0, waiters: [] };
      l.calls += calls;
      l.waiters.push(waiter);
      this.waitingCalls += calls;
      if (!line) this.lines.set(payerKey, l);
      this.pump();
    });
  }

  /** Requests being handled and calls waiting now (for tests). */
  get load() {
    return { running: this.running, waitingCalls: this.waitingCalls };
  }

  private slot(): () => void {
    this.running += 1;
    this.startedThisTurn += 1;
    this.pump();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running -= 1;
      this.pump();
    };
  }

  /**
   * In the next turn of the event loop (after it has read the sockets), lets in waiting
   * requests. A cached answer is built without ever awaiting anything, so requests let
   * in at once would each be done before the next socket is read, the pool never full,
   * and one turn of the loop would build the answers of every connection that had sent
   * one (300 of 470 KB: seconds). At most `running` requests start per turn.
   */
  private pump() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startedThisTurn = 0;
      this.next();
      if (this.lines.size && this.running < this.rule.running) this.pump();
    });
  }

  /** Admits the first waiting request of the payer whose turn it is, and sends that payer to the back. */
  private next() {
    while (this.running < this.rule.running && this.startedThisTurn < this.rule.running && this.lines.size) {
      const [payerKey, line] = this.lines.entries().next().value!;
      const waiter = line.waiters.shift()!;
      line.calls -= waiter.calls;
      this.waitingCalls -= waiter.calls;
      this.lines.delete(payerKey);
      if (line.waiters.length) this.lines.set(payerKey, line);
      waiter.admit();
    }
  }

  private drop(payerKey: string, waiter: Waiter) {
    const line = this.lines.get(payerKey);
    const i = line ? line.waiters.indexOf(waiter) : -1;
    if (!line || i < 0) return;
    line.waiters.splice(i, 1);
    line.calls -= waiter.calls;
    this.waitingCalls -= waiter.calls;
    if (!line.waiters.length) this.lines.delete(payerKey);
  }
}
