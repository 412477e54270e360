import { describe, expect, it } from 'vitest';
import { limits, RateLimiter } from '../../src/server/guards/rate-limit';

describe('rate limiter', () => {
  it('allows the window maximum, refuses the next, and opens again after the window', () => {
    let now = 0;
    const rl = new RateLimiter(() => now);
    const { max, windowMs } = limits.recoverPerAccount;
    for (let i = 0; i < max; i++) expect(rl.hit('recoverPerAccount', 7)).toBe(true);
    expect(rl.hit('recoverPerAccount', 7)).toBe(false);
    expect(rl.blocked('recoverPerAccount', 7)).toBe(true);
    expect(rl.hit('recoverPerAccount', 8)).toBe(true); // keys are separate
    now += windowMs;
    expect(rl.blocked('recoverPerAccount', 7)).toBe(false);
    expect(rl.hit('recoverPerAccount', 7)).toBe(true);
  });

  it('slides: a burst at the end of one window is still counted at the start of the next', () => {
    let now = 0;
    const rl = new RateLimiter(() => now);
    const { max, windowMs } = limits.loginPerAccount;
    now = windowMs - 1000;
    for (let i = 0; i < max; i++) expect(rl.hit('loginPerAccount', 'id:1')).toBe(true);
    now = windowMs + 1000; // a fixed window would have started afresh here
    expect(rl.hit('loginPerAccount', 'id:1')).toBe(false);
    now = 2 * windowMs - 1000;
    expect(rl.hit('loginPerAccount', 'id:1')).toBe(true);
  });

  it('a refunded slot can be taken again; refused hits take nothing', () => {
    const rl = new RateLimiter(() => 0);
    const { max } = limits.loginPerDevice;
    for (let i = 0; i < max; i++) rl.hit('loginPerDevice', 'd');
    expect(rl.hit('loginPerDevice', 'd')).toBe(false);
    rl.refund('loginPerDevice', 'd');
    expect(rl.hit('loginPerDevice', 'd')).toBe(true);
    expect(rl.hit('loginPerDevice', 'd')).toBe(false);
  });
  it('stays bounded when callers invent keys (login names), sweeping at most every few seconds', () => {
    let now = 0;
    const rl = new RateLimiter(() => now);
    let sweepsWorth = 0;
    let refused = 0;
    // Counted, not asserted per hit: 300,000 expect() calls alone outlast the test's time on a loaded machine.
    for (let i = 0; i < 300_000; i++) {
      now += 1; // 300 s of traffic, all keys still inside their 15-minute window
      if (!rl.hit('loginPerAccount', `name-${i}`)) refused++;
      sweepsWorth = Math.max(sweepsWorth, rl.size);
    }
    expect(refused).toBe(0);
    // Never far past the cap: at most one sweep interval (10 s = 10,000 hits here) above it.
    expect(sweepsWorth).toBeLessThanOrEqual(210_000);
    // The newest keys are kept, so a name being guessed right now is still counted.
    for (let i = 0; i < limits.loginPerAccount.max - 1; i++) rl.hit('loginPerAccount', 'name-299999');
    expect(rl.hit('loginPerAccount', 'name-299999')).toBe(false);
  });
});
