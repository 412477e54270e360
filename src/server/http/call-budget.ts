import { callTurns, type CallTurns } from './call-turns';
import { addressKey } from './rate-limit';

/**
 * What one payer may spend on API calls (tRPC, REST; a batch of n calls costs n):
 * - a rate, as a bucket of `burst` calls refilled at `perSecond`;
 * - a concurrency, `inFlight` calls answered at once.
 * A dashboard (several tabs, each page's calls, the live refetches) asks a few dozen
 * calls in a burst and well under one a second on average; 100 requests sent at once by
 * a script (the limits' own attack tests do) fit too. A flood of batches does not.
 */
export type CallRule = { burst: number; perSecond: number; inFlight: number };

export const CALL_BUDGETS = {
  /** A signed-in account (session or API key), whatever its addresses. */
  account: { burst: 600, perSecond: 10, inFlight: 100 },
  /** A client without a known account (guests, public calls), by address (an IPv6 /64 is one). */
  address: { burst: 600, perSecond: 10, inFlight: 100 },
} satisfies Record<string, CallRule>;

/** Who pays for a request's calls. */
export type Payer = { key: string; rule: CallRule };

export type Admission = { ok: true; release: () => void } | { ok: false; retryAfterS: number };

type Bucket = { tokens: number; at: number; inFlight: number };

/**
 * The account a bearer token signs in now (a live session, or an API key allowed from
 * `ip`), or null: the auth's own indexed lookup by the token's hash, without its writes.
 */
export type OwnerOf = (token: string, ip: string) => Promise<number | null>;

/**
 * Refusals of one payer answered after a pause at once (call-budget-gate.ts); beyond
 * these a refusal is answered at once, so a payer with many connections (an IPv6
 * client's many addresses, anyone behind a proxy) holds no more than this many timers.
 */
export const MAX_PAUSED_REFUSALS = 32;

const SWEEP_ABOVE = 50_000;
const SWEEP_EVERY_MS = 10_000;

/**
 * In-memory call budgets (one server holds a data folder, so these are the only ones;
 * a restart empties them, like the rate limiter's). Checked before any work. The payer
 * of a request with a bearer token is looked up afresh each time (`ownerOf`), never
 * remembered: a token revoked, logged out or used outside its key's allow list stops
 * charging its old account at once, and a restart leaves no token unknown. A token
 * that signs no one in (a bogus one) pays from its address, and nothing is kept of it.
 */
export class CallBudget {
  private buckets = new Map<string, Bucket>();
  /** Each busy payer's queue of calls (call-turns.ts); gone when it has nothing running. */
  private turns = new Map<string, CallTurns>();
  /** Paused refusals per payer; gone at zero. */
  private paused = new Map<string, number>();
  private lastSweep = 0;
  private readonly now: () => number;
  private readonly ownerOf: OwnerOf;
  constructor(opts: { now?: () => number; ownerOf?: OwnerOf } = {}) {
    this.now = opts.now ?? Date.now;
    this.ownerOf = opts.ownerOf ?? (async () => null);
  }

  async payer(token: string | null, ip: string): Promise<Payer> {
    const account = token ? await this.ownerOf(token, ip) : null;
    return account !== null ? { key: `account:${account}`, rule: CALL_BUDGETS.account } : addressPayer(ip);
  }

  /**
   * A refusal of `payerKey` may wait: its release, or null when MAX_PAUSED_REFUSALS of
   * the payer's already wait (answer this one at once).
   */
  holdRefusal(payerKey: string): (() => void) | null {
    const n = this.paused.get(payerKey) ?? 0;
    if (n >= MAX_PAUSED_REFUSALS) return null;
    this.paused.set(payerKey, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.paused.get(payerKey) ?? 1) - 1;
      if (left) this.paused.set(payerKey, left);
      else this.paused.delete(payerKey);
    };
  }

  /** Refusals of the payer waiting now (for tests). */
  pausedRefusals(payerKey: string): number {
    return this.paused.get(payerKey) ?? 0;
  }

  /**
   * Takes `calls` from the payer's rate and concurrency, all or nothing. Refused: how
   * many whole seconds until they would fit. Admitted: `release` when the answer is built.
   */
  take(payer: Payer, calls: number): Admission {
    const t = this.now();
    const { rule } = payer;
    let b = this.buckets.get(payer.key);
    if (!b) {
      b = { tokens: rule.burst, at: t, inFlight: 0 };
      this.buckets.set(payer.key, b);
      if (this.buckets.size > SWEEP_ABOVE && t - this.lastSweep > SWEEP_EVERY_MS) this.sweep(t);
    }
    b.tokens = Math.min(rule.burst, b.tokens + ((t - b.at) / 1000) * rule.perSecond);
    b.at = t;
    if (b.inFlight + calls > rule.inFlight) return { ok: false, retryAfterS: 1 };
    if (b.tokens < calls) return { ok: false, retryAfterS: Math.max(1, Math.ceil((calls - b.tokens) / rule.perSecond)) };
    b.tokens -= calls;
    b.inFlight += calls;
    let released = false;
    const bucket = b;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        bucket.inFlight -= calls;
      },
    };
  }

  /**
   * The turns a payer's calls take. Looked up when a call starts, not when its request
   * arrived, so a payer has one queue at a time.
   */
  turnsFor(payerKey: string): CallTurns {
    return {
      take: () => {
        let queue = this.turns.get(payerKey);
        if (!queue) {
          queue = callTurns(undefined, () => this.turns.delete(payerKey));
          this.turns.set(payerKey, queue);
        }
        return queue.take();
      },
    };
  }

  /** Buckets held now (for tests). */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops buckets that are full again and idle: they hold nothing a new bucket would not. */
  private sweep(t: number) {
    this.lastSweep = t;
    for (const [key, b] of this.buckets) {
      const rule = key.startsWith('account:') ? CALL_BUDGETS.account : CALL_BUDGETS.address;
      if (!b.inFlight && b.tokens + ((t - b.at) / 1000) * rule.perSecond >= rule.burst) this.buckets.delete(key);
    }
  }
}

/** The payer of a client without an account: its address (an IPv6 /64 is one). */
export const addressPayer = (ip: string): Payer => ({ key: `address:${addressKey(ip)}`, rule: CALL_BUDGETS.address });

/** The words of a refusal: what the client can do now. */
export const overBudgetMessage = (retryAfterS: number) =>
  `Too many requests at once from this account or address. Please wait ${retryAfterS} second${retryAfterS === 1 ? '' : 's'} and try again.`;
