import { randomUUID } from 'node:crypto';
import type { CreditCardInput } from '../../../shared/schemas/billing';
import { CARD_PAYMENTS_OFF } from '../../../shared/schemas/billing';
import type { Context } from '../../rpc/context';
import { fail } from '../../kernel/errors';
import { insertEvent } from '../../events/outbox';
import type { CardGateway } from './gateway';
import { cardGateway, GatewayError } from './gateway';
import { findCardSession, findCardSessionByRequest, insertCardSession, setCardSessionStatus } from './queries';

/*
 * Card payments through Stripe Checkout. Opening, resuming and cancelling a session talk
 * to Stripe; none of them moves money. The balance is credited only by the signed
 * `checkout.session.completed` webhook (webhook.ts). No Stripe call is made inside a
 * database transaction.
 */

type Ctx = Pick<Context, 'db' | 'config' | 'log' | 'limiter'>;

const NO_ANSWER = 'The card payment provider did not answer. Nothing was charged; please try again in a moment.';
const NOT_FOUND = 'Payment session not found.';
const TOO_MANY_CALLS = 'Too many payment requests. Please wait an hour and try again.';

function gatewayOf(ctx: Ctx): CardGateway {
  return cardGateway(ctx.config) ?? fail('SERVICE_UNAVAILABLE', CARD_PAYMENTS_OFF);
}

/** Whole cents of a validated USD amount (at most two decimals, see creditCardInput). */
const centsOf = (usd: number) => Math.round(usd * 100);

/**
 * Opens a Checkout session for `amount` USD and records it as pending. The Idempotency-Key
 * sent to Stripe is the client's request key (or a fresh one), so a repeated request gets
 * the session the first one made. An error whose outcome is unknown (network, Stripe's
 * 5xx) records nothing: a session we never saw cannot be paid, since its page was never
 * shown, and its webhook would be refused as unknown.
 */
export async function openCardSession(ctx: Ctx, userId: number, input: CreditCardInput) {
  const gateway = gatewayOf(ctx);
  const cents = centsOf(input.amount);
  const requestKey = `credit_card:${userId}:${input.idempotency_key ?? randomUUID()}`;
  const earlier = await findCardSessionByRequest(ctx.db, requestKey);
  if (earlier) {
    if (earlier.amount !== cents * 10_000)
      fail('BAD_REQUEST', 'This payment request was already made with another amount.');
    if (earlier.status !== 'pending')
      fail('BAD_REQUEST', `This payment request was already ${earlier.status === 'paid' ? 'paid' : earlier.status}.`);
    return {
      success: true as const,
      message: 'Redirecting to the payment page.',
      session: earlier.id,
      url: earlier.url,
    };
  }
  if (!ctx.limiter.hit('cardSessionsPerAccount', userId))
    fail('TOO_MANY_REQUESTS', 'Too many payment attempts. Please wait an hour and try again.');
  const base = ctx.config.publicUrl;
  let session;
  try {
    session = await gateway.createSession(
      {
        userId,
        cents,
        description: 'Nodekeep balance',
        successUrl: `${base}/dashboard/billing?card=success`,
        cancelUrl: `${base}/dashboard/billing?card=cancelled`,
      },
      requestKey,
    );
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    ctx.log.warn('card session not opened', { user_id: userId, cents, ambiguous: err.ambiguous, err: err.message });
    if (err.ambiguous) fail('SERVICE_UNAVAILABLE', NO_ANSWER);
    fail('BAD_REQUEST', err.message);
  }
  if (!session.url || session.amount_total !== cents || session.currency !== 'usd') {
    ctx.log.error('card session differs from the request', {
      user_id: userId,
      cents,
      session: session.id,
      amount_total: session.amount_total,
      currency: session.currency,
    });
    fail('SERVICE_UNAVAILABLE', NO_ANSWER);
  }
  await insertCardSession(ctx.db, {
    id: session.id,
    user_id: userId,
    amount: cents * 10_000,
    currency: 'usd',
    url: session.url,
    request_key: requestKey,
  });
  return { success: true as const, message: 'Redirecting to the payment page.', session: session.id, url: session.url };
}

/**
 * The user's own pending session, or NOT_FOUND (another user's session is not found
 * either). Takes a slot of the account's provider calls, since the caller asks Stripe
 * next: one account repeating resume or cancel must not use up the platform's Stripe
 * rate limit, which every user's card payments share.
 */
async function ownPending(ctx: Ctx, userId: number, sessionId: string) {
  const row = await findCardSession(ctx.db, sessionId);
  if (!row || row.user_id !== userId) fail('NOT_FOUND', NOT_FOUND);
  if (row.status === 'paid') fail('BAD_REQUEST', 'This payment was already completed.');
  if (row.status !== 'pending') fail('BAD_REQUEST', `This payment session was ${row.status}.`);
  if (!ctx.limiter.hit('cardCallsPerAccount', userId)) fail('TOO_MANY_REQUESTS', TOO_MANY_CALLS);
  return row;
}

async function markAndTell(ctx: Ctx, userId: number, sessionId: string, to: 'cancelled' | 'expired') {
  await ctx.db.transaction().execute(async (trx) => {
    if (await setCardSessionStatus(trx, sessionId, ['pending'], to))
      await insertEvent(trx, userId, 'refresh_transactions', {});
  });
}

/** The hosted page of a pending session, if Stripe still takes payment on it. */
export async function resumeCardSession(ctx: Ctx, userId: number, sessionId: string) {
  const gateway = gatewayOf(ctx);
  const row = await ownPending(ctx, userId, sessionId);
  let s;
  try {
    s = await gateway.retrieveSession(row.id);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    ctx.log.warn('card session not retrieved', { session: row.id, err: err.message });
    fail('SERVICE_UNAVAILABLE', NO_ANSWER);
  }
  if (s.status === 'expired') {
    await markAndTell(ctx, userId, row.id, 'expired');
    fail('BAD_REQUEST', 'This payment session has expired.');
  }
  if (s.status === 'complete')
    fail(
      'BAD_REQUEST',
      'This payment was already completed; your balance is credited as soon as the payment is confirmed.',
    );
  return { success: true as const, url: s.url ?? row.url };
}

/**
 * Expires the session at Stripe, then marks it cancelled. When Stripe refuses because the
 * session was completed meanwhile, it stays pending: its webhook credits it.
 */
export async function cancelCardSession(ctx: Ctx, userId: number, sessionId: string) {
  const gateway = gatewayOf(ctx);
  const row = await ownPending(ctx, userId, sessionId);
  try {
    await gateway.expireSession(row.id, `expire:${row.id}`);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    ctx.log.warn('card session not expired', { session: row.id, ambiguous: err.ambiguous, err: err.message });
    if (err.ambiguous)
      fail('SERVICE_UNAVAILABLE', 'The card payment provider did not answer. Please try again in a moment.');
    const s = await gateway.retrieveSession(row.id).catch(() => null);
    if (s?.status === 'complete')
      fail(
        'BAD_REQUEST',
        'This payment was already completed; your balance is credited as soon as the payment is confirmed.',
      );
    if (s?.status !== 'expired') fail('BAD_REQUEST', err.message);
  }
  await markAndTell(ctx, userId, row.id, 'cancelled');
  return { success: true as const, message: 'The payment was cancelled.' };
}
