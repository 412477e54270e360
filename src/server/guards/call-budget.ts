import ipaddr from 'ipaddr.js';
import { ipv6Network } from '../../shared/ip';
import { ADMISSION_POOLS, AdmissionPool, type Entry } from './admission-pool';
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
  /**
   * An IPv6 /48, whose /64s (65,536 of them) each have an address budget: their calls
   * also count here, so one tunnel or one provider's allocation has four addresses' worth.
   */
  network: { burst: 2400, perSecond: 40, inFlight: 400 },
} satisfies Record<string, CallRule>;

/**
 * Who pays for a request's calls: its bucket, and for an IPv6 guest its /48's too.
 * `pool`: whose admission pool it waits in (admission-pool.ts), as `poolKey` (a /48
 * for IPv6 guests, so its many /64s take one turn in the round robin, not thousands).
 */
export type Payer = {
  key: string;
  rule: CallRule;
  network?: { key: string; rule: CallRule };
  pool: 'guest' | 'account';
  poolKey: string;
};

/** Admitted: `release` when the answer is built; `release(true)` when no call ran (the calls are handed back). */
export type Admission = { ok: true; release: (unused?: boolean) => void } | { ok: false; retryAfterS: number };

type Bucket = { tokens: number; at: number; inFlight: number };

/**
 * The account a bearer token signs in now (a live session, or an API key allowed from
 * `ip`), or null: the auth's own indexed lookup by the token's hash, without its writes.
 */
/** `request`: one object per HTTP request, so the owner's lookup can be shared with the procedure's (auth/sessions.ts). */
export type OwnerOf = (token: string, ip: string, request?: object) => Promise<number | null>;

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
  /** Process-wide admission, one pool for all guests and one for all accounts. */
  private pools = {
    guest: new AdmissionPool(ADMISSION_POOLS.guest),
    account: new AdmissionPool(ADMISSION_POOLS.account),
  };
  private lastSweep = 0;
  private readonly now: () => number;
  private readonly ownerOf: OwnerOf;
  constructor(opts: { now?: () => number; ownerOf?: OwnerOf } = {}) {
    this.now = opts.now ?? Date.now;
    this.ownerOf = opts.ownerOf ?? (async () => null);
  }

  async payer(token: string | null, ip: string, request?: object): Promise<Payer> {
    const account = token ? await this.ownerOf(token, ip, request) : null;
    return account !== null
      ? { key: `account:${account}`, rule: CALL_BUDGETS.account, pool: 'account', poolKey: `account:${account}` }
      : addressPayer(ip);
  }

  /** A place in the payer's admission pool for `calls` calls (admission-pool.ts). */
  enter(payer: Payer, calls: number, clientSignal?: () => AbortSignal): Entry | Promise<Entry> {
    return this.pools[payer.pool].enter(payer.poolKey, calls, clientSignal);
  }

  /** The pools' load now (for tests). */
  poolLoad(pool: Payer['pool']) {
    return this.pools[pool].load;
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
    const buckets = [
      this.bucket(payer.key, payer.rule, t),
      ...(payer.network ? [this.bucket(payer.network.key, payer.network.rule, t)] : []),
    ];
    const rules = [payer.rule, ...(payer.network ? [payer.network.rule] : [])];
    let retryAfterS = 0;
    buckets.forEach((b, i) => {
      if (b.inFlight + calls > rules[i].inFlight) retryAfterS = Math.max(retryAfterS, 1);
      else if (b.tokens < calls)
        retryAfterS = Math.max(retryAfterS, Math.ceil((calls - b.tokens) / rules[i].perSecond), 1);
    });
    if (retryAfterS) return { ok: false, retryAfterS };
    for (const b of buckets) {
      b.tokens -= calls;
      b.inFlight += calls;
    }
    let released = false;
    return {
      ok: true,
      release: (unused = false) => {
        if (released) return;
        released = true;
        buckets.forEach((b, i) => {
          b.inFlight -= calls;
          if (unused) b.tokens = Math.min(rules[i].burst, b.tokens + calls);
        });
      },
    };
  }

  /** The payer's bucket, refilled to now. */
  private bucket(key: string, rule: CallRule, t: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: rule.burst, at: t, inFlight: 0 };
      this.buckets.set(key, b);
      if (this.buckets.size > SWEEP_ABOVE && t - this.lastSweep > SWEEP_EVERY_MS) this.sweep(t);
    }
    b.tokens = Math.min(rule.burst, b.tokens + ((t - b.at) / 1000) * rule.perSecond);
    b.at = t;
    return b;
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
      const rule = key.startsWith('account:')
        ? CALL_BUDGETS.account
        : key.startsWith('network:')
          ? CALL_BUDGETS.network
          : CALL_BUDGETS.address;
      if (!b.inFlight && b.tokens + ((t - b.at) / 1000) * rule.perSecond >= rule.burst) this.buckets.delete(key);
    }
  }
}

/**
 * The payer of a client without an account: its address (an IPv6 /64 is one), and for
 * IPv6 also its /48.
 */
export function addressPayer(ip: string): Payer {
  const key = `address:${addressKey(ip)}`;
  const net = network48(ip);
  if (!net) return { key, rule: CALL_BUDGETS.address, pool: 'guest', poolKey: key };
  const network = { key: `network:${net}`, rule: CALL_BUDGETS.network };
  return { key, rule: CALL_BUDGETS.address, network, pool: 'guest', poolKey: network.key };
}

/** An IPv6 client's /48 (`2001:db8:1::/48`); null for IPv4 (an IPv4-mapped address is IPv4). */
function network48(ip: string): string | null {
  const bare = ip.split('%')[0];
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return null;
  const a = ipaddr.IPv6.parse(bare);
  if (a.isIPv4MappedAddress()) return null;
  return ipv6Network(a, 48);
}

/** The words of a refusal by the admission pool (admission-pool.ts): what the client can do now. */
export const serverBusyMessage = (retryAfterS: number) =>
  `The server is busy answering many other visitors. Please wait ${retryAfterS} second${retryAfterS === 1 ? '' : 's'} and try again.`;

/** The words of a refusal: what the client can do now. */
export const overBudgetMessage = (retryAfterS: number) =>
  `Too many requests at once from this account or address. Please wait ${retryAfterS} second${retryAfterS === 1 ? '' : 's'} and try again.`;
