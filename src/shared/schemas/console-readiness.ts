import { z } from 'zod';
import { hostName } from './console-fleet';

// The console's Catalog page, readiness (issue 23): whether each coin is offered to
// customers, what is missing when not, and its newest `coins check`.

export const checkStep = z.object({
  step: z.enum(['profile', 'host', 'program', 'version', 'daemon', 'calls', 'p2p_port']),
  ok: z.boolean(),
  detail: z.string(),
});

export const coinReadinessRow = z.object({
  coin: z.string(),
  profile: z.string(),
  /** Offered to customers now; false: they see "Coming soon". */
  offered: z.boolean(),
  /** What is missing before it is offered, for the operator (null when offered). */
  missing: z.string().nullable(),
  last_check: z
    .object({
      id: z.number().int(),
      state: z.enum(['queued', 'running', 'passed', 'failed']),
      host: z.string().nullable(),
      reason: z.string().nullable(),
      steps: z.array(checkStep),
      requested_at: z.string(),
      checked_at: z.string().nullable(),
    })
    .nullable(),
});
export const coinReadiness = z.array(coinReadinessRow);

export const checkCoinInput = z
  .object({
    coin: z
      .string()
      .trim()
      .regex(/^[a-z0-9]{1,32}$/, 'must be a coin id'),
    host: hostName.optional(),
  })
  .strict();
export const checkCoinOutput = z.object({ success: z.literal(true), check: z.number().int() });
