import { describe, expect, it } from 'vitest';
import { LoadingClock, SAME_WAIT_MS } from './loadingWatchdog';

describe('the loading clock', () => {
  it('counts spinners that take turns (start-up, guard, page code) as one wait', () => {
    const clock = new LoadingClock();
    expect(clock.began(1_000)).toBe(1_000);
    clock.ended(4_000);
    // The next spinner replaces it at once (same commit) or shortly after.
    expect(clock.began(4_000)).toBe(1_000);
    clock.ended(6_000);
    expect(clock.began(6_000 + SAME_WAIT_MS)).toBe(1_000);
  });

  it('starts a new wait after the screen showed content for a while', () => {
    const clock = new LoadingClock();
    clock.began(1_000);
    clock.ended(2_000);
    expect(clock.began(2_000 + SAME_WAIT_MS + 1)).toBe(2_000 + SAME_WAIT_MS + 1);
  });

  it('keeps the wait while two spinners show at once', () => {
    const clock = new LoadingClock();
    clock.began(1_000);
    expect(clock.began(3_000)).toBe(1_000);
    clock.ended(5_000);
    expect(clock.began(60_000)).toBe(1_000); // one was still on screen all along
  });
});
