/**
 * The simulator's fastest chain: one block every 50 ms. The fleet clamps a profile's
 * `time_scale` to it (a 12 s chain at time_scale 300 would be 40 ms) rather than having
 * every node of that coin refused at start.
 */
export const SIM_MIN_BLOCK_TIME_S = 0.05;

/** A coin's block time as the simulator runs it under a profile's `time_scale`. */
export function simulatedBlockTimeS(blockTimeS: number, timeScale: number): number {
  return Math.max(SIM_MIN_BLOCK_TIME_S, blockTimeS / timeScale);
}
