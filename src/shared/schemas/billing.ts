import { z } from 'zod';
import { pageQuery } from './common';

/*
 * The billing and affiliate calls (platform-and-account.md sections 3 and 7). Amounts
 * leave the server as USD numbers (the spec's shape), converted once from the ledger's
 * integer micro-dollars; nothing is computed from these numbers.
 */

/** A node the next daily charge would destroy: its id and its name as notifications give it. */
export const nodeAtRisk = z.object({ mn_id: z.string(), name: z.string() });

/**
 * `get_balance`: the balance (cents), the nodes that are charged and what they cost a
 * month; beyond the spec, the runway: their fees per day (exact), the whole hours the
 * balance pays them (null when nothing is charged), and, when the balance does not cover
 * the next 00:00 UTC charge, the nodes it would destroy and what keeps them all (USD, up
 * to the cent).
 */
export const getBalanceOutput = z.object({
  success: z.literal(true),
  balance: z.number(),
  total_masternodes: z.number().int(),
  monthly_cost: z.number(),
  daily_cost: z.number(),
  runway_hours: z.number().int().nullable(),
  at_risk: z.array(nodeAtRisk),
  keep: z.number(),
});
export type GetBalanceOutput = z.infer<typeof getBalanceOutput>;

/** A card payment session not completed yet (resume or cancel it). */
export const cardSession = z.object({ id: z.string(), amount: z.number(), time: z.string() });
export type CardSession = z.infer<typeof cardSession>;

/** A crypto deposit seen on chain and not yet credited. */
/** A crypto deposit seen and not yet credited; `amount` is in the currency's own units (USD only once credited). */
export const pendingDeposit = z.object({
  currency_label: z.string(),
  confirmations: z.number().int(),
  max_confirmations: z.number().int(),
  amount: z.number(),
  date: z.string(),
});
export type PendingDeposit = z.infer<typeof pendingDeposit>;

/** One line of the history: `date` "YYYY-MM-DD HH:MM" UTC; `amount` in USD, negative when the balance went down. */
export const transaction = z.object({ date: z.string(), description: z.string(), amount: z.number() });
export type TransactionRow = z.infer<typeof transaction>;

/** `get_transactions`: pages of the history, newest first (`page`, `per_page`; beyond the spec: `total`). */
export const getTransactionsInput = pageQuery.optional();
export const getTransactionsOutput = z.object({
  success: z.literal(true),
  stripe: z.array(cardSession),
  pending: z.array(pendingDeposit),
  transactions: z.array(transaction),
  total: z.number().int(),
});
export type GetTransactionsOutput = z.infer<typeof getTransactionsOutput>;

/** A calendar month, UTC: "2026-11". */
export const statementMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month must be written YYYY-MM, such as 2026-11.');

/** `get_statement {month}`: one month of the ledger. */
export const getStatementInput = z.object({ month: statementMonth }).strict();
/** A statement line: the history's line with the balance after it. */
export const statementEntry = transaction.extend({ balance: z.number() });
/**
 * A monthly statement from the ledger: the balance when the month began, every line of
 * it in order, the balance when it ended (or now, for the month under way); `months`: the
 * months with a statement, newest first. USD numbers, exact to the micro-dollar.
 */
export const getStatementOutput = z.object({
  success: z.literal(true),
  month: statementMonth,
  months: z.array(statementMonth),
  opening: z.number(),
  money_in: z.number(),
  money_out: z.number(),
  closing: z.number(),
  entries: z.array(statementEntry),
});
export type GetStatementOutput = z.infer<typeof getStatementOutput>;

/** `export_transactions`: the whole history as CSV (over REST the file itself). */
export const exportTransactionsOutput = z.object({
  success: z.literal(true),
  filename: z.string(),
  csv: z.string(),
});

/** One currency a deposit can be made in; `address` is empty until the user generated theirs. */
export const altPayment = z.object({
  id: z.string(),
  label: z.string(),
  ticker: z.string(),
  icon_id: z.string().optional(),
  address: z.string(),
  max_confirmations: z.number().int(),
});
export type AltPayment = z.infer<typeof altPayment>;
export const getAltPaymentsOutput = z.object({ success: z.literal(true), currencies: z.array(altPayment) });

/** `generate_wallet {currency}` (the three acknowledgements are the client's gate; the server takes the currency). */
export const generateWalletInput = z.object({ currency: z.string().min(1, 'Currency required.').max(32) }).strict();
export const generateWalletOutput = z.object({ success: z.literal(true), address: z.string() });

/** Card presets and limits (section 9). */
export const CARD_PRESETS = [25, 50, 100, 250, 500] as const;
export const CARD_DEFAULT = 10;
export const CARD_MINIMUM = 5;
/** The largest single card payment we take (beyond the spec: a typo should not charge a card $1,000,000). */
export const CARD_MAXIMUM = 10_000;

/** `credit_card {amount}` in whole or decimal dollars, at most two decimals. */
export const creditCardInput = z
  .object({
    amount: z
      .number({ error: (issue) => (issue.input === undefined ? 'Amount required.' : 'The amount must be a number.') })
      // Read as the number's shortest decimal text, what the client wrote: n * 100 is not
      // exact in binary (1.15 * 100 = 114.99999999999999), and a tolerance would take
      // 5.000000001 as $5.00, a fraction of a cent the customer never gets a clear answer for.
      .refine(
        (n) => Number.isFinite(n) && /^-?\d+(\.\d{1,2})?$/.test(String(n)),
        'The amount has at most two decimals.',
      )
      .refine((n) => n >= CARD_MINIMUM, `The minimum card payment is $${CARD_MINIMUM}.`)
      .refine((n) => n <= CARD_MAXIMUM, `The largest card payment is $${CARD_MAXIMUM.toLocaleString('en-US')}.`),
    /**
     * Made by the client once per Pay click (beyond the spec): a repeated request (a double
     * click, a retry after a lost answer) gets the session the first one made, not a second.
     */
    idempotency_key: z
      .string()
      .regex(/^[\w-]{8,64}$/, 'The request key is 8-64 letters, digits, - or _.')
      .optional(),
  })
  .strict();
export type CreditCardInput = z.infer<typeof creditCardInput>;
/** `session` is the Checkout session's id; `url` (beyond the spec) is its hosted page, where the client goes next. */
export const creditCardOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  session: z.string(),
  url: z.string(),
});
export const cancelStripeInput = z.object({ session_id: z.string().min(1, 'Session required.').max(255) }).strict();
/** `resume_stripe {session_id}` (beyond the spec): the hosted page of a pending session, to go back to it. */
export const resumeStripeInput = cancelStripeInput;
export const resumeStripeOutput = z.object({ success: z.literal(true), url: z.string() });
/** What the Stripe tab says, and the card calls answer, while no Stripe keys are configured. */
export const CARD_PAYMENTS_OFF = 'Card payments are not available at the moment.';

/** `redeem_coupon {code}`. */
export const redeemCouponInput = z
  .object({ code: z.string().trim().min(1, 'Gift code required.').max(64, 'Gift code not found.') })
  .strict();

/** One line of the referral history: a referred user's sign-up (amount 0) or the bonus their first deposit paid; `date` as in `transaction`. */
export const referral = z.object({ date: z.string(), description: z.string(), amount: z.number() });
export type ReferralRow = z.infer<typeof referral>;
/** `get_referrals`: pages of the affiliate history, newest first (`page`, `per_page`; beyond the spec: `total`). */
export const getReferralsInput = pageQuery.optional();
export const getReferralsOutput = z.object({
  success: z.literal(true),
  referrals: z.array(referral),
  total: z.number().int(),
});
export type GetReferralsOutput = z.infer<typeof getReferralsOutput>;
/**
 * `get_ref_infos`: users referred, bonuses paid to the balance (USD), and the referred users'
 * nodes that are charged. Beyond the spec: `pending_ref_earnings`, bonuses earned but not
 * spendable yet (held 14 days, or waiting for review), in USD.
 */
export const getRefInfosOutput = z.object({
  success: z.literal(true),
  total_refs: z.number().int(),
  total_ref_earnings: z.number(),
  total_ref_mns: z.number().int(),
  pending_ref_earnings: z.number(),
});
export type GetRefInfosOutput = z.infer<typeof getRefInfosOutput>;
