import { z } from 'zod';
import { parseUsd } from '../money';

// The console's Money page (issue 11). Money in integer micro-dollars; times ISO.

export const giftCodeState = z.enum(['unused', 'redeemed', 'expired', 'revoked']);

export const createGiftCodesInput = z
  .object({
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a dollar amount such as 25 or 2.50')
      .transform((s) => parseUsd(s))
      .refine((m) => m > 0, 'must be more than 0')
      .refine((m) => m <= 10_000_000_000, 'must be at most 10000 dollars'),
    count: z.number().int('must be a whole number').min(1, 'must be 1-1000').max(1000, 'must be 1-1000'),
    /** Valid through this UTC day. */
    expires: z.iso.date({ error: 'must be a date such as 2027-01-31' }),
  })
  .strict();
/** The codes themselves: shown to the operator once, never stored or logged. */
export const createGiftCodesOutput = z.object({
  batch: z.string(),
  codes: z.array(z.string()),
  amount_micros: z.number().int(),
  expires_at: z.string(),
});

export const giftCodeListInput = z.object({ batch: z.string().max(32).optional() }).strict();
export const giftCodeRow = z.object({
  id: z.number().int(),
  hint: z.string(),
  amount_micros: z.number().int(),
  batch: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  state: giftCodeState,
  redeemed_by: z.string().nullable(),
  redeemed_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type GiftCodeRow = z.infer<typeof giftCodeRow>;
export const giftCodeList = z.object({ codes: z.array(giftCodeRow) });

export const revokeGiftCodesInput = z.union([
  z.object({ ids: z.array(z.number().int().positive()).min(1, 'pick at least one code').max(1000) }).strict(),
  z.object({ batch: z.string().trim().min(1).max(32) }).strict(),
]);
export const revokeGiftCodesOutput = z.object({ revoked: z.number().int() });

export const cardSessionsInput = z
  .object({ status: z.enum(['pending', 'paid', 'cancelled', 'expired']).optional() })
  .strict();
export const cardSessionList = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      username: z.string().nullable(),
      user_id: z.number().int(),
      amount_micros: z.number().int(),
      status: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
});

/** Customers who owe money after a card payment was taken back (billing/debt.ts), largest first. */
export const debtList = z.object({
  debts: z.array(
    z.object({ user_id: z.number().int(), username: z.string().nullable(), owed_micros: z.number().int() }),
  ),
});

export const depositsInput = z
  .object({ state: z.enum(['pending', 'credited', 'below_minimum', 'removed']).optional() })
  .strict();
export const depositList = z.object({
  deposits: z.array(
    z.object({
      id: z.number().int(),
      currency_id: z.string(),
      username: z.string().nullable(),
      user_id: z.number().int(),
      txid: z.string(),
      amount: z.string(),
      confirmations: z.number().int(),
      state: z.string(),
      usd_micros: z.number().int().nullable(),
      seen_at: z.string(),
    }),
  ),
});

export const currencyList = z.object({
  currencies: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      ticker: z.string(),
      kind: z.string(),
      enabled: z.boolean(),
      confirmations: z.number().int(),
      minimum_micros: z.number().int(),
      rpc_url: z.string(),
      addresses: z.number().int(),
    }),
  ),
});
export const setCurrencyInput = z.object({ id: z.string().min(1).max(32), enabled: z.boolean() }).strict();

export const chargeRuns = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      started_at: z.string().nullable(),
      completed_at: z.string().nullable(),
      reminded_at: z.string().nullable(),
      daily_micros: z.number().int(),
      daily_transfers: z.number().int(),
      initial_micros: z.number().int(),
      initial_transfers: z.number().int(),
    }),
  ),
});
