/**
 * Fixed-window counters kept in memory. Losing them on restart is acceptable: they
 * slow down guessing; the durable 2FA lock lives on the user row.
 */
export type LimitRule = { max: number; windowMs: number };

export const limits = {
  loginPerIp: { max: 30, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { max: 10, windowMs: 15 * 60_000 },
  registerPerIp: { max: 20, windowMs: 60 * 60_000 },
  recoverPerIp: { max: 10, windowMs: 60 * 60_000 },
  recoverPerAccount: { max: 3, windowMs: 60 * 60_000 },
  verifyPerIp: { max: 30, windowMs: 15 * 60_000 },
  tfaPerIp: { max: 30, windowMs: 15 * 60_000 },
  resendPerAccount: { max: 3, windowMs: 60 * 60_000 },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof limits;

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one hit; false once the key has used up its window. */
  hit(name: LimitName, key: string | number): boolean {
    const rule = limits[name];
    const id = `${name}:${key}`;
    const t = this.now();
    let w = this.windows.get(id);
    if (!w || t - w.start >= rule.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(id, w);
    }
    w.count += 1;
    if (this.windows.size > 50_000) this.sweep(t);
    return w.count <= rule.max;
  }

  /** True while the key is over its limit, without counting a hit. */
  blocked(name: LimitName, key: string | number): boolean {
    const w = this.windows.get(`${name}:${key}`);
    return !!w && this.now() - w.start < limits[name].windowMs && w.count >= limits[name].max;
  }

  reset(name: LimitName, key: string | number): void {
    this.windows.delete(`${name}:${key}`);
  }

  private sweep(t: number) {
    for (const [id, w] of this.windows) if (t - w.start > 60 * 60_000) this.windows.delete(id);
  }
}
