import { useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import {
  CARD_DEFAULT,
  CARD_PAYMENTS_OFF,
  CARD_PRESETS,
  creditCardInput,
  type CardSession,
} from '../../shared/schemas/billing';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { useUser } from '../session/session';
import { Alert } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { useToasts } from '../ui/Toasts';
import { useForm } from '../ui/useForm';
import { formatUsd2 } from '../ui/display';
import './billing-tabs.css';

const CHOICES = [CARD_DEFAULT, ...CARD_PRESETS] as const;
const OTHER = 'other';
/** The pending sessions come with the history's first page (the page shell asks for the same). */
const TRANSACTIONS_INPUT = { page: 1, per_page: 5 };

/** One key per Pay click: a double click or a retry gets the same payment session, never two. */
function requestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Other amount as people type it: "$20", "1,000" or "1,000.50" (US grouping) read as
 * numbers; anything else is handed to the schema as it is, which says what is wrong.
 */
export function otherAmount(text: string): number | undefined {
  let t = text.trim().replace(/^\$\s*/, '');
  if (t === '') return undefined;
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, '');
  return Number(t);
}

/** Where the browser goes to pay: Stripe's hosted checkout page. */
function goTo(url: string) {
  window.location.assign(url);
}

/**
 * The Stripe tab: an amount (presets, $10 by default, or Other with a required number),
 * Pay opens a payment session and goes to its hosted page. Pending sessions can be
 * resumed (back to their page) or cancelled. The balance is credited by the payment
 * provider's confirmation, never by this page.
 */
export function CardTab() {
  const user = useUser();
  if (!user.stripe_public_key) return <Alert kind="info">{CARD_PAYMENTS_OFF}</Alert>;
  return <CardPayments />;
}

/*
 * The amount is a choice of buttons or the Other field; each attempt carries its own
 * idempotency key (a new one after a failure); the provider's refusal is a toast.
 */
function CardPayments() {
  const toasts = useToasts();
  const [key, setKey] = useState(requestKey);
  const pay = trpc.billing.credit_card.useMutation();
  // `choice` is the radio ("10", "25", … or "other"); `amount` is the Other field's text.
  const form = useForm({
    schema: creditCardInput,
    initial: { choice: String(CARD_DEFAULT), amount: '' },
    toInput: ({ choice, amount }) => ({
      amount: choice === OTHER ? otherAmount(amount) : Number(choice),
      idempotency_key: key,
    }),
    submit: (data) => pay.mutateAsync(data),
    successMessage: () => null,
    onSuccess: (res) => goTo(res.url),
    // The provider's failure is a toast (the page and the focus on Pay stay as they are).
    sayServerError: (message) => toasts.show(message, { kind: 'error' }),
    // A new key: the failed request is over, and the next Pay click is a new payment.
    onError: () => setKey(requestKey()),
  });
  const choice = form.values.choice;
  const choose = (c: string) => form.setValues({ ...form.values, choice: c });
  // Back from the provider's page (`?card=success|cancelled`): said once, and the address bar
  // is cleaned, so a reload or a bookmark days later does not thank for a payment again.
  const [params, setParams] = useSearchParams();
  const [returned] = useState(() => params.get('card'));
  useEffect(() => {
    if (!params.has('card')) return;
    const rest = new URLSearchParams(params);
    rest.delete('card');
    setParams(rest, { replace: true });
  }, [params, setParams]);

  return (
    <div className="card-tab">
      {returned === 'success' && (
        <Alert kind="success">
          Thank you. Your payment is added to your balance as soon as the payment provider confirms it.
        </Alert>
      )}
      {returned === 'cancelled' && (
        <Alert kind="info">The payment was not completed. You can resume it below or start a new one.</Alert>
      )}
      <form onSubmit={form.onSubmit} noValidate aria-label="Pay by card">
        <fieldset className="card-amounts">
          <legend>Amount</legend>
          {CHOICES.map((n) => (
            <label key={n}>
              <input
                type="radio"
                name="card-amount"
                checked={choice === String(n)}
                onChange={() => choose(String(n))}
              />{' '}
              ${n}
            </label>
          ))}
          <label>
            <input type="radio" name="card-amount" checked={choice === OTHER} onChange={() => choose(OTHER)} /> Other
          </label>
        </fieldset>
        {choice === OTHER && (
          <TextField
            {...form.field('amount', 'Amount (USD)')}
            inputMode="decimal"
            required
            autoFocus
            hint="At least $5."
          />
        )}
        {choice !== OTHER && form.errors.amount && <Alert kind="error">{form.errors.amount}</Alert>}
        {form.error && <Alert kind="error">{form.error}</Alert>}
        {/* aria-disabled, not disabled: the focus stays on Pay when the provider's error comes back (useForm ignores a second submit). */}
        <button type="submit" className="btn btn-primary" aria-disabled={form.pending || undefined}>
          {form.pending ? 'Opening the payment page…' : 'Pay'}
        </button>
      </form>
      <PendingSessions />
    </div>
  );
}

function PendingSessions() {
  const toasts = useToasts();
  const utils = trpc.useUtils();
  const list = trpc.billing.get_transactions.useQuery(TRANSACTIONS_INPUT);
  const resume = trpc.billing.resume_stripe.useMutation();
  const cancel = trpc.billing.cancel_stripe.useMutation();
  const sessions: CardSession[] = list.data?.stripe ?? [];
  if (!sessions.length) return null;

  async function onResume(id: string) {
    if (resume.isPending) return;
    try {
      goTo((await resume.mutateAsync({ session_id: id })).url);
    } catch {
      toasts.show('Something went wrong', { kind: 'error' });
      await utils.billing.get_transactions.invalidate();
    }
  }

  async function onCancel(id: string) {
    if (cancel.isPending) return;
    try {
      toasts.show((await cancel.mutateAsync({ session_id: id })).message, { kind: 'success' });
    } catch (err) {
      toasts.show(errorMessage(err), { kind: 'error' });
    }
    await utils.billing.get_transactions.invalidate();
  }

  return (
    <section aria-label="Pending card payments" className="card-pending-section">
      <h3>Pending card payments</h3>
      <ul className="card-pending">
        {sessions.map((s) => {
          // Each row's buttons say which payment they act on: a screen reader lists them out of their row.
          const which = `${formatUsd2(s.amount)}, started ${s.time} UTC`;
          return (
            <li key={s.id} data-testid="card-session">
              {/* The amount resumes too, for the mouse; the keyboard has the Resume button beside it (one stop, not two). */}
              <button
                type="button"
                className="card-pending-resume"
                onClick={() => onResume(s.id)}
                aria-disabled={resume.isPending || undefined}
                title="Resume this payment"
                tabIndex={-1}
              >
                {formatUsd2(s.amount)}
              </button>
              <span className="muted">{s.time} UTC</span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => onResume(s.id)}
                aria-disabled={resume.isPending || undefined}
                aria-label={`Resume ${which}`}
              >
                Resume
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => onCancel(s.id)}
                aria-disabled={cancel.isPending || undefined}
                aria-label={`Cancel ${which}`}
              >
                Cancel
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
