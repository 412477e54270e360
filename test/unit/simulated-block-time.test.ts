import { describe, expect, it } from 'vitest';
import { SIM_MIN_BLOCK_TIME_S, simulatedBlockTimeS } from '../../src/server/fleet/simulator/limits';

describe('simulatedBlockTimeS', () => {
  it("scales the coin's block time, never below what the simulator accepts", () => {
    expect(simulatedBlockTimeS(150, 300)).toBe(0.5);
    // Ethereum's 12 s slot at time_scale 300 would be 40 ms: the simulator refused such nodes at start.
    expect(simulatedBlockTimeS(12, 300)).toBe(SIM_MIN_BLOCK_TIME_S);
    expect(simulatedBlockTimeS(12, 10_000)).toBe(SIM_MIN_BLOCK_TIME_S);
    expect(simulatedBlockTimeS(60, 1)).toBe(60);
  });
});
