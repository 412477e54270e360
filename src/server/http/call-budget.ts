import { createHash } from 'node:crypto';
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

const SWEEP_ABOVE = 50_000;
const SWEEP_EVERY_MS = 10_000;
const MAX_KNOWN_TOKENS = 100_000;

/**
 * In-memory call budgets (one server holds a data folder, so these are the only ones;
 * a restart empties them, like the rate limiter's). Checked before any work: the payer
 * is found without the database, from tokens the auth middlewares have resolved before
 * (`identify`). A token seen for the first time pays from its address's budget until
 * its first call resolves it: at most one request's worth.
 */
export class CallBudget {
  private buckets = new Map<string, Bucket>();
  /** sha256 of a bearer token → its account. Digests, so the map holds no usable token. */
  private accounts = new Map<string, number>();
  /** Each busy payer's queue of calls (call-turns.ts); gone when it has nothing running. */
  private turns = new Map<string, CallTurns>();
  private lastSweep = 0;
  constructor(private readonly now: () => number = Date.now) {}

  payer(token: string | null, ip: string): Payer {
    const account = token ? this.accounts.get(digest(token)) : undefined;
    return account !== undefined ? { key: `account:${account}`, rule: CALL_BUDGETS.account } : { key: `address:${addressKey(ip)}`, rule: CALL_BUDGETS.address };
  }

  /** Remembers whose token this is, once a procedure's auth has resolved it. */
  identify(token: string, userId: number): void {
    const d = digest(token);
    if (this.accounts.get(d) === userId) return;
    if (this.accounts.size >= MAX_KNOWN_TOKENS) this.accounts.delete(this.accounts.keys().next().value!);
    this.accounts.set(d, userId);
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

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The words of a refusal: what the client can do now. */
export const overBudgetMessage = (retryAfterS: number) =>
  `Too many requests at once from this account or address. Please wait ${retryAfterS} second${retryAfterS === 1 ? '' : 's'} and try again.`;
