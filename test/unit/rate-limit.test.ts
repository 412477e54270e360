import { describe, expect, it } from 'vitest';
import { limits, RateLimiter } from '../../src/server/http/rate-limit';

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
});
