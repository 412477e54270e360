/**
 * The simulator's SIN chain knows a burn made a day ago for any transaction ID that starts
 * with this (fleet/simulator/ledger.ts); the demo's burn step says so, so a customer trying
 * the demo can finish the SIN wizard. One source for both.
 */
export const SIMULATED_BURN_PREFIX = 'b0b0';
