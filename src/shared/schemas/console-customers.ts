import { z } from 'zod';
import { parseUsd } from '../money';
import { pageQuery } from './common';

// The console's Customers page (issue 11). Money in integer micro-dollars; times ISO.

export const customerSearchInput = z
  .object({ q: z.string().trim().min(1, 'type a username, email or id').max(100, 'must be at most 100 characters') })
  .strict();

export const customerSummary = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  verified: z.boolean(),
  tfa: z.boolean(),
  disabled: z.boolean(),
  operator: z.boolean(),
  created_at: z.string(),
  balance_micros: z.number().int(),
});
export type CustomerSummary = z.infer<typeof customerSummary>;

export const customerSearchOutput = z.object({ customers: z.array(customerSummary), more: z.boolean() });

export const customerIdInput = z.object({ id: z.number().int().positive() }).strict();

export const customerNode = z.object({
  id: z.number().int(),
  mn_id: z.string(),
  coin_id: z.string(),
  alias: z.string().nullable(),
  package: z.string(),
  state: z.string(),
  status: z.string(),
  server_ip: z.string().nullable(),
  daily_price_micros: z.number().int(),
  created_at: z.string(),
});

export const customerProfile = z.object({
  customer: customerSummary.extend({
    referrer: z.string().nullable(),
    verified_at: z.string().nullable(),
    disabled_at: z.string().nullable(),
    live_sessions: z.number().int(),
  }),
  nodes: z.array(customerNode),
  /** The newest 50, open or cleared. */
  notifications: z.array(z.object({ message: z.string(), hour: z.string(), link: z.string(), cleared: z.boolean() })),
});
export type CustomerProfile = z.infer<typeof customerProfile>;

export const customerLedgerInput = pageQuery.extend({ id: z.number().int().positive() }).strict();
export const customerLedger = z.object({
  balance_micros: z.number().int(),
  transfers: z.array(
    z.object({
      id: z.number().int(),
      at: z.string(),
      kind: z.string(),
      description: z.string(),
      amount_micros: z.number().int(),
    }),
  ),
  total: z.number().int(),
});

/** "25", "+10.50" or "-3" dollars (at most 6 decimals), not zero, at most $10,000 either way. */
export const usdAmount = z
  .string()
  .trim()
  .regex(/^[+-]?\d{1,9}(\.\d{1,6})?$/, 'must be a dollar amount such as 25 or -3.50')
  .transform((s) => parseUsd(s))
  .refine((m) => m !== 0, 'must not be zero')
  .refine((m) => Math.abs(m) <= 10_000_000_000, 'must be at most 10000 dollars either way');

/** Made by the form when it opens: a double submit posts one transfer. */
export const idempotencyKey = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1-100 letters, digits or . : _ -');

export const adjustBalanceInput = z
  .object({
    id: z.number().int().positive(),
    amount: usdAmount,
    reason: z
      .string()
      .trim()
      .min(1, 'a reason is required (the customer sees it in their history)')
      .max(200, 'must be at most 200 characters'),
    key: idempotencyKey,
  })
  .strict();
export const adjustBalanceOutput = z.object({ applied: z.boolean(), balance_micros: z.number().int() });

export const customerChangeOutput = z.object({ changed: z.boolean() });

export const resetTfaInput = z
  .object({
    id: z.number().int().positive(),
    identity_check: z
      .string()
      .trim()
      .min(10, 'say how you checked who is asking (at least 10 characters)')
      .max(500, 'must be at most 500 characters'),
  })
  .strict();
