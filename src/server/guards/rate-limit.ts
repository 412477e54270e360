import ipaddr from 'ipaddr.js';
import { ipv6Network } from '../../shared/ip';

/**
 * Sliding-window counters kept in memory. A slot is taken (`hit`) before the work it
 * guards and, for limits on failures, handed back (`refund`) when the work turns out
 * not to count, so parallel requests can never all pass a check made before any of
 * them was counted. One server holds a data folder at a time (db/data-dir.ts), so these
 * counters are the only ones; losing them on restart is accepted (docs/decisions.md "Work inside a request").
 * The durable 2FA lock lives on the user row.
 */
export type LimitRule = { max: number; windowMs: number };

const MINUTE = 60_000;

export const limits = {
  loginPerIp: { max: 30, windowMs: 15 * MINUTE },
  /**
   * Password checks for one login name as typed (a username or an email, known or
   * not) by anyone without a known device: an account has two names, so 20 for it.
   */
  loginPerAccount: { max: 10, windowMs: 15 * MINUTE },
  /** Password checks from one device that logged in to the account before. */
  loginPerDevice: { max: 10, windowMs: 15 * MINUTE },
  changePasswordPerAccount: { max: 10, windowMs: 15 * MINUTE },
  registerPerIp: { max: 20, windowMs: 60 * MINUTE },
  /** "Someone tried to register with your email" notices to one owner. */
  registerNoticePerAccount: { max: 3, windowMs: 60 * MINUTE },
  recoverPerIp: { max: 10, windowMs: 60 * MINUTE },
  recoverPerAccount: { max: 3, windowMs: 60 * MINUTE },
  verifyPerIp: { max: 30, windowMs: 15 * MINUTE },
  tfaPerIp: { max: 30, windowMs: 15 * MINUTE },
  resendPerAccount: { max: 3, windowMs: 60 * MINUTE },
  /** Page-visit reports: a person clicks far less often than this. */
  visitedPerUser: { max: 60, windowMs: MINUTE },
  /** Card payment sessions opened by one account (each is a call to the payment provider). */
  cardSessionsPerAccount: { max: 30, windowMs: 60 * MINUTE },
  /**
   * Resumes and cancels of one account that reach the payment provider: each is a call on
   * the platform's one Stripe key, whose rate limit all users share.
   */
  cardCallsPerAccount: { max: 60, windowMs: 60 * MINUTE },
  /** Gift code attempts that failed (a good code hands its slot back): guessing stays hopeless. */
  giftCodePerAccount: { max: 10, windowMs: 60 * MINUTE },
  giftCodePerIp: { max: 30, windowMs: 60 * MINUTE },
  /** Chat messages in one conversation (a customer's, or a visitor's): a person types far slower. */
  supportMessagesPerConversation: { max: 20, windowMs: MINUTE },
  /** Chat messages from one address, over all its conversations. */
  supportMessagesPerIp: { max: 60, windowMs: 10 * MINUTE },
  /** Visitors' conversations opened from one address. */
  supportConversationsPerIp: { max: 5, windowMs: 60 * MINUTE },
  /** Visitors' conversations opened platform-wide: many addresses cannot bury the inbox (customers are not counted). */
  supportConversationsTotal: { max: 200, windowMs: 60 * MINUTE },
  /**
   * Mails with the link that confirms a held visitor conversation, to one email address
   * (lower-cased): however many addresses ask, the link cannot flood a mailbox.
   */
  supportConfirmMailPerEmail: { max: 3, windowMs: 24 * 60 * MINUTE },
  /** Those mails asked for from one client address. */
  supportConfirmMailPerIp: { max: 3, windowMs: 60 * MINUTE },
  /**
   * Test alerts one account sends (each is a request to a third party: a webhook, Telegram,
   * Discord): a person checking a channel sends a few. Without it one account made the
   * platform post 888 times in 30 s, which could get its address throttled by Telegram.
   */
  alertTestsPerAccount: { max: 10, windowMs: 10 * MINUTE },
  /** Calls made with one API key (any address): a script polling every second fits. */
  apiKeyUse: { max: 300, windowMs: MINUTE },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof limits;

/**
 * The key a per-address limit counts under: an IPv4 address itself, an IPv6 address's
 * /64. One IPv6 customer line or server is routinely given a whole /64, so counting each
 * of its 2^64 addresses apart would let one client pass every `*PerIp` limit by changing
 * its address per request. Written out in full, so every spelling of an address counts once.
 */
export function addressKey(ip: string): string {
  const bare = ip.split('%')[0];
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return ip;
  const a = ipaddr.IPv6.parse(bare);
  // An IPv4 client written as a mapped IPv6 address (::ffff:c000:201) is that IPv4 client.
  if (a.isIPv4MappedAddress()) return a.toIPv4Address().toString();
  return ipv6Network(a, 64);
}

/** Per-address limits (`*PerIp`) count by `addressKey`; the others by their key as given. */
const keyOf = (name: LimitName, key: string | number) =>
  `${name}:${typeof key === 'string' && name.endsWith('PerIp') ? addressKey(key) : key}`;

const SWEEP_ABOVE = 50_000;
const SWEEP_EVERY_MS = 10_000;
const MAX_KEYS = 200_000;

export class RateLimiter {
  /** The times of the slots taken in the current window, oldest first; never more than `max`. */
  private windows = new Map<string, number[]>();
  private lastSweep = 0;
  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one slot; false (and nothing taken) once the key has used up its window. */
  hit(name: LimitName, key: string | number): boolean {
    const rule = limits[name];
    const id = keyOf(name, key);
    const t = this.now();
    const taken = this.live(id, rule, t);
    if (taken.length >= rule.max) return false;
    taken.push(t);
    this.windows.set(id, taken);
    if (this.windows.size > SWEEP_ABOVE && t - this.lastSweep > SWEEP_EVERY_MS) this.sweep(t);
    return true;
  }

  /** Hands back the newest slot of the key (the work it guarded did not count). */
  refund(name: LimitName, key: string | number): void {
    const id = keyOf(name, key);
    const taken = this.windows.get(id);
    taken?.pop();
    if (taken && !taken.length) this.windows.delete(id);
  }

  /** True while the key has no slot left, without taking one. */
  blocked(name: LimitName, key: string | number): boolean {
    const rule = limits[name];
    return this.live(keyOf(name, key), rule, this.now()).length >= rule.max;
  }

  /** Keys held now (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  reset(name: LimitName, key: string | number): void {
    this.windows.delete(keyOf(name, key));
  }

  private live(id: string, rule: LimitRule, t: number): number[] {
    const taken = this.windows.get(id) ?? [];
    let expired = 0;
    while (expired < taken.length && t - taken[expired] >= rule.windowMs) expired++;
    if (expired) taken.splice(0, expired);
    return taken;
  }

  /**
   * Drops keys idle for an hour, at most once per SWEEP_EVERY_MS: keys are partly chosen
   * by callers (login names), so sweeping on every hit above the mark would cost
   * O(keys) per request. Past a hard cap the oldest keys go too, so memory is bounded.
   */
  private sweep(t: number) {
    this.lastSweep = t;
    for (const [id, taken] of this.windows)
      if (!taken.length || t - taken[taken.length - 1] > 60 * MINUTE) this.windows.delete(id);
    for (const id of this.windows.keys()) {
      if (this.windows.size <= MAX_KEYS) break;
      this.windows.delete(id);
    }
  }
}
