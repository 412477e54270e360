import type Stripe from 'stripe';
import * as v from 'valibot';
import { usd } from '../../../shared/notification-kinds';
import { findUserById, operatorIds } from '../../auth/users';
import type { AppDeps } from '../../rpc/context';
import { afterRaise, raise } from '../../notifications/raise';
import { depositReversed } from '../deposit-hooks';
import { payDebt, takeBack } from '../debt';
import { PLATFORM, postTransfer, userAccount } from '../ledger';
import { findTransferByKey } from '../queries';
import {
  cardReversal,
  disputedAmount,
  findCardDispute,
  findCardSessionByPaymentIntent,
  insertCardEvent,
  saveCardReversal,
  upsertCardDispute,
} from './queries';
import type { WebhookAnswer } from './webhook-answer';

/*
 * Card payments taken back by the card's bank: refunds and disputes of a charge we
 * credited. The charge is matched to our session by its PaymentIntent, recorded when the
 * session was credited. Per session we keep the largest `amount_refunded` seen and the
 * disputes; every event recomputes what should be taken back,
 *   min(credited, refunded + open and lost disputes),
 * and posts the difference from what is taken now. So an event id applied twice, two
 * events for the same growth, events out of order, or a refund on top of a dispute never
 * take more than once, nor more than was credited. A won dispute gives its amount back.
 * All of it in one money transaction with the event's id, which is recorded once.
 */

export const REVERSAL_EVENTS = new Set(['charge.refunded', 'charge.dispute.created', 'charge.dispute.closed']);

type Deps = Pick<AppDeps, 'db' | 'hub' | 'mail' | 'log'>;

const Id = v.pipe(v.string('must be text'), v.minLength(1, 'must not be empty'), v.maxLength(255, 'is too long'));
// Whole cents; at most a billion dollars, so cents × 10,000 stays an exact integer.
const Cents = v.pipe(
  v.number('must be a number'),
  v.integer('must be whole cents'),
  v.minValue(0, 'must not be negative'),
  v.maxValue(100_000_000_000, 'is too large'),
);
const Charge = v.object({
  id: Id,
  object: v.literal('charge'),
  amount: Cents,
  amount_refunded: Cents,
  currency: Id,
  payment_intent: Id,
});
const Dispute = v.object({
  id: Id,
  object: v.literal('dispute'),
  amount: Cents,
  currency: Id,
  charge: Id,
  payment_intent: Id,
  status: Id,
});

const MICROS_PER_CENT = 10_000;

/** What an event asks, once its object is validated. */
type Ask =
  | { what: 'refund'; charge: string; paymentIntent: string; currency: string; amount: number; refunded: number }
  | {
      what: 'dispute';
      dispute: string;
      charge: string;
      paymentIntent: string;
      currency: string;
      amount: number;
      closed: 'won' | 'lost' | null;
    };

function read(event: Stripe.Event): Ask | string {
  const issue = (r: { issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] }) => {
    const i = r.issues[0];
    return `${v.getDotPath(i) ?? 'object'} ${i.message}`;
  };
  if (event.type === 'charge.refunded') {
    const r = v.safeParse(Charge, event.data?.object);
    if (!r.success) return `The event's charge is not valid: ${issue(r)}.`;
    const c = r.output;
    if (c.amount_refunded > c.amount) return "The event's charge has more refunded than paid.";
    return {
      what: 'refund',
      charge: c.id,
      paymentIntent: c.payment_intent,
      currency: c.currency,
      amount: c.amount,
      refunded: c.amount_refunded,
    };
  }
  const r = v.safeParse(Dispute, event.data?.object);
  if (!r.success) return `The event's dispute is not valid: ${issue(r)}.`;
  const d = r.output;
  let closed: 'won' | 'lost' | null = null;
  if (event.type === 'charge.dispute.closed') {
    // An inquiry closed without a chargeback (`warning_closed`) gives the money back, as a won dispute does.
    if (d.status === 'won' || d.status === 'warning_closed') closed = 'won';
    else if (d.status === 'lost') closed = 'lost';
    else return `A closed dispute must be won, lost or warning_closed, not ${d.status}.`;
  }
  return {
    what: 'dispute',
    dispute: d.id,
    charge: d.charge,
    paymentIntent: d.payment_intent,
    currency: d.currency,
    amount: d.amount,
    closed,
  };
}

/** Acts on a verified `charge.refunded`, `charge.dispute.created` or `charge.dispute.closed`. */
export async function handleReversalEvent(deps: Deps, event: Stripe.Event): Promise<WebhookAnswer> {
  const ask = read(event);
  if (typeof ask === 'string') {
    deps.log.warn('stripe reversal refused', { event: event.id, type: event.type, reason: ask });
    return { status: 400, message: `${ask} Nothing was changed.` };
  }
  const row = await findCardSessionByPaymentIntent(deps.db, ask.paymentIntent);
  const deposit = row ? await findTransferByKey(deps.db, `card:${row.id}`) : undefined;
  if (!row || !deposit) {
    deps.log.warn('stripe reversal for an unknown charge', {
      event: event.id,
      type: event.type,
      charge: ask.charge,
      payment_intent: ask.paymentIntent,
    });
    return {
      status: 404,
      message: `Unknown charge ${ask.charge}: no credited card payment has its payment intent; nothing was changed.`,
    };
  }
  const paidCents = row.amount / MICROS_PER_CENT;
  if (ask.currency !== row.currency)
    return {
      status: 400,
      message: `The currency ${ask.currency} differs from the payment's ${row.currency}; nothing was changed.`,
    };
  if (ask.what === 'refund' && ask.amount !== paidCents)
    return { status: 400, message: "The charge's amount differs from the recorded payment; nothing was changed." };
  if (ask.amount > paidCents)
    return { status: 400, message: 'The disputed amount is larger than the recorded payment; nothing was changed.' };

  const userId = row.user_id;
  const depositTransferId = deposit.id;
  const done = await deps.db.transaction().execute(async (trx) => {
    if (!(await insertCardEvent(trx, { id: event.id, type: event.type, session_id: row.id }))) return null;
    const before = await cardReversal(trx, row.id);
    let refunded = before.refunded;
    let alert: 'refund' | 'dispute' | 'dispute_won' | 'dispute_lost' = 'refund';
    if (ask.what === 'refund') refunded = Math.max(refunded, ask.refunded * MICROS_PER_CENT);
    else {
      const known = await findCardDispute(trx, ask.dispute);
      const status = ask.closed ?? 'open';
      // A closed dispute stays closed: a late `created` changes nothing.
      if (!known || (known.status === 'open' && status !== 'open'))
        await upsertCardDispute(trx, {
          id: ask.dispute,
          session_id: row.id,
          amount: ask.amount * MICROS_PER_CENT,
          status,
        });
      alert = status === 'open' ? 'dispute' : status === 'won' ? 'dispute_won' : 'dispute_lost';
    }
    const target = Math.min(row.amount, refunded + (await disputedAmount(trx, row.id)));
    await saveCardReversal(trx, row.id, refunded, target);
    const change = target - before.taken;
    const meta = { session: row.id, charge: ask.charge, event: event.id };
    const on = new Date(deposit.created_at).toISOString().slice(0, 10);
    let debt = 0;
    if (change > 0) {
      debt = await takeBack(trx, {
        userId,
        amount: change,
        idempotencyKey: `card_take:${row.id}:${event.id}`,
        kind: ask.what === 'refund' ? 'card_refund' : 'card_dispute',
        description:
          ask.what === 'refund'
            ? `Card payment refunded: ${usd(change)} of your payment of ${on}`
            : `Card payment disputed: ${usd(change)} of your payment of ${on}`,
        meta,
      });
      // A bonus this payment earned its referrer is not paid once the money went back (any
      // part of it): referrals cancel it here (registered by the composition root).
      await depositReversed(trx, depositTransferId, ask.what === 'refund' ? 'refunded' : 'disputed');
      await raise(trx, userId, 'card_payment_reversed', { usd_micros: change, reason: ask.what, debt_micros: debt });
    } else if (change < 0) {
      await postTransfer(trx, {
        idempotencyKey: `card_return:${row.id}:${event.id}`,
        debit: PLATFORM.card,
        credit: userAccount(userId),
        amount: -change,
        kind: 'card_dispute_won',
        description: `Card dispute closed: ${usd(-change)} of your payment of ${on} given back`,
        meta,
      });
      await payDebt(trx, userId, -change, `debt_payment:card_return:${row.id}:${event.id}`);
      await raise(trx, userId, 'card_dispute_won', { usd_micros: -change });
    }
    if (change !== 0 || alert === 'dispute_lost') {
      const who = (await findUserById(trx, userId))?.username ?? `user #${userId}`;
      for (const op of await operatorIds(trx))
        await raise(trx, op, 'card_reversal_alert', {
          who,
          event: alert,
          usd_micros: Math.abs(change),
          debt_micros: debt,
        });
    }
    return { change, debt };
  });
  if (!done) return { status: 200, message: 'Already applied.' };
  if (done.change !== 0)
    deps.log.info('card payment taken back or given back', {
      event: event.id,
      type: event.type,
      session: row.id,
      user_id: userId,
      change: done.change,
      debt: done.debt,
    });
  afterRaise(deps);
  return {
    status: 200,
    message: done.change > 0 ? 'Taken back.' : done.change < 0 ? 'Given back.' : 'Applied; nothing more to take.',
  };
}
