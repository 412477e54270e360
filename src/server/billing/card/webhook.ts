import type Stripe from 'stripe';
import type { AppDeps } from '../../rpc/context';
import { insertEvent } from '../../events/outbox';
import { afterRaise, raise } from '../../notifications/raise';
import { creditDeposit } from '../deposit';
import { cardGateway, GatewayError } from './gateway';
import {
  findCardSession,
  setCardSessionFingerprint,
  setCardSessionPaymentIntent,
  setCardSessionStatus,
} from './queries';
import { handleReversalEvent, REVERSAL_EVENTS } from './reversals';
import type { WebhookAnswer } from './webhook-answer';

export type { WebhookAnswer } from './webhook-answer';

type Deps = Pick<AppDeps, 'db' | 'hub' | 'mail' | 'log' | 'config'>;

/**
 * The fingerprint of the card that paid, asked of Stripe before the credit's transaction
 * (no network call inside one); the referral bonus compares it with the referrer's cards.
 * One attempt of at most 5 s (the credit waits that long at worst); null when Stripe did
 * not tell in time: the bonus then waits for the operator.
 */
async function paidWithCard(deps: Deps, sessionId: string): Promise<{ fingerprint: string | null }> {
  try {
    return { fingerprint: (await cardGateway(deps.config)?.cardFingerprint(sessionId)) ?? null };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    deps.log.warn('card fingerprint not retrieved', { session: sessionId, err: err.message });
    return { fingerprint: null };
  }
}

/**
 * Acts on one verified Stripe event. A paid `checkout.session.completed` (or
 * `async_payment_succeeded`) credits the session's recorded amount once: the credit's
 * key is `card:<session id>`, so any number of deliveries, in any order, at once or
 * not, post one transfer; the session is marked paid in the same transaction. Paid is
 * final: an `expired` arriving later changes nothing. A session we did not record, or
 * whose amount, currency or user differ from our record, is refused and changes nothing.
 * The paid session's PaymentIntent is recorded with the credit: refunds and disputes of
 * its charge (reversals.ts) find the payment by it.
 */
export async function handleCardEvent(deps: Deps, event: Stripe.Event): Promise<WebhookAnswer> {
  if (REVERSAL_EVENTS.has(event.type)) return handleReversalEvent(deps, event);
  if (
    event.type !== 'checkout.session.completed' &&
    event.type !== 'checkout.session.async_payment_succeeded' &&
    event.type !== 'checkout.session.expired'
  ) {
    return { status: 200, message: `Event type ${event.type} is not used.` };
  }
  const s = event.data.object;
  if (typeof s?.id !== 'string') return { status: 400, message: 'The event carries no checkout session.' };
  const row = await findCardSession(deps.db, s.id);
  if (!row) {
    deps.log.warn('stripe webhook for an unknown session', { event: event.id, type: event.type, session: s.id });
    return { status: 404, message: `Unknown checkout session ${s.id}; nothing was changed.` };
  }
  if (event.type === 'checkout.session.expired') {
    await deps.db.transaction().execute(async (trx) => {
      if (await setCardSessionStatus(trx, row.id, ['pending'], 'expired'))
        await insertEvent(trx, row.user_id, 'refresh_transactions', {});
    });
    return { status: 200, message: 'Session marked expired.' };
  }
  if (
    s.amount_total !== row.amount / 10_000 ||
    s.currency !== row.currency ||
    (s.metadata?.user_id ?? null) !== String(row.user_id)
  ) {
    deps.log.error('stripe webhook differs from the recorded session', {
      event: event.id,
      session: s.id,
      amount_total: s.amount_total,
      currency: s.currency,
      recorded: row.amount,
      user_id: row.user_id,
    });
    return {
      status: 400,
      message:
        'The amount, currency or customer of this session differ from the recorded session; nothing was credited.',
    };
  }
  if (s.payment_status !== 'paid') return { status: 200, message: 'The payment is not confirmed yet; waiting for it.' };
  const card = row.status === 'paid' ? { fingerprint: row.card_fingerprint } : await paidWithCard(deps, row.id);
  const credited = await deps.db.transaction().execute(async (trx) => {
    if (card.fingerprint) await setCardSessionFingerprint(trx, row.id, card.fingerprint);
    const done = await creditDeposit(trx, {
      card,
      userId: row.user_id,
      amount: row.amount,
      via: 'card',
      idempotencyKey: `card:${row.id}`,
      description: 'Card payment',
      meta: { session: row.id, event: event.id },
    });
    await setCardSessionStatus(trx, row.id, ['pending', 'cancelled', 'expired'], 'paid');
    // Also on a repeated delivery: a payment credited before this was recorded gets it then.
    if (typeof s.payment_intent === 'string' && s.payment_intent.length > 0 && s.payment_intent.length <= 255)
      await setCardSessionPaymentIntent(trx, row.id, s.payment_intent);
    if (done) await raise(trx, row.user_id, 'card_payment_credited', { usd_micros: row.amount });
    return done;
  });
  if (credited) {
    afterRaise(deps);
    deps.log.info('card payment credited', { session: row.id, user_id: row.user_id, amount: row.amount });
  }
  return { status: 200, message: credited ? 'Credited.' : 'Already credited.' };
}
