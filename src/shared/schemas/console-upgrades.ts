import { z } from 'zod';

/** A daemon version as operators write them ("22.1.3"). */
export const daemonVersion = z
  .string()
  .trim()
  .regex(/^[\w.+-]{1,40}$/, 'must be 1-40 letters, digits and . + - _ (such as 22.1.3)');

export const rolloutStartInput = z
  .object({
    coin_id: z
      .string()
      .trim()
      .regex(/^[a-z0-9]{1,32}$/, 'choose a coin'),
    version: daemonVersion,
    batch_size: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be 1-1000')
      .max(1000, 'must be 1-1000')
      .default(10),
  })
  .strict();
export const rolloutStartOutput = z.object({ id: z.number(), nodes: z.number(), skipped: z.number() });

export const rolloutIdInput = z.object({ id: z.number().int().positive() }).strict();
export const rolloutActionInput = z
  .object({ id: z.number().int().positive(), action: z.enum(['pause', 'resume', 'abort']) })
  .strict();

const nodeStates = ['pending', 'upgrading', 'healthy', 'failed', 'rolled_back', 'skipped'] as const;

export const rolloutSummary = z.object({
  id: z.number(),
  coin_id: z.string(),
  coin: z.string(),
  from_version: z.string().nullable(),
  to_version: z.string(),
  batch_size: z.number(),
  batches: z.number(),
  /** 0: the canary; batches after it count from 1. */
  current_batch: z.number(),
  state: z.enum(['running', 'paused', 'done', 'halted', 'aborted']),
  reason: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  counts: z.record(z.enum(nodeStates), z.number()),
});
export type RolloutSummary = z.infer<typeof rolloutSummary>;

/** The Upgrades page: each coin's version now (and live nodes), and the recent rollouts. */
export const upgradesPage = z.object({
  coins: z.array(
    z.object({ id: z.string(), label: z.string(), version: z.string().nullable(), live_nodes: z.number() }),
  ),
  rollouts: z.array(rolloutSummary),
});
export type UpgradesPage = z.infer<typeof upgradesPage>;

export const rolloutDetail = rolloutSummary.extend({
  nodes: z.array(
    z.object({ mn_id: z.string(), batch: z.number(), state: z.enum(nodeStates), error: z.string().nullable() }),
  ),
});
