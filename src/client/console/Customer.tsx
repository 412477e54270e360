import { useRef, useState } from 'react';
import { Link, useParams } from 'wouter';
import { adjustBalanceInput, resetTfaInput, type CustomerProfile } from '../../shared/schemas/console-customers';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { Pager } from '../ui/Pager';
import { QueryState } from '../ui/QueryState';
import { useForm } from '../ui/useForm';
import { useConfirm } from '../ui/useConfirm';
import { usd, usdExact, utc } from './format';
import { ConversationLog } from './Support';
import { escapeBidi } from '../../shared/bidi';
import { CustomerText } from './CustomerText';

const LEDGER_PAGE = 20;

/** One customer: profile and account actions, balance adjustment, nodes, ledger, notifications. */
export function Customer() {
  const params = useParams<{ id: string }>();
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) return <Alert kind="error">No such customer.</Alert>;
  return <CustomerPage id={id} />;
}

function CustomerPage({ id }: { id: number }) {
  const profile = trpc.console.customers.get.useQuery({ id });
  return (
    <QueryState query={profile} what="The customer">
      {(p) => (
        <div className="console-customer">
          <p>
            <Link href="/customers">← Customers</Link>
          </p>
          <ProfileSection p={p} />
          <AdjustSection id={id} username={p.customer.username} balance={p.customer.balance_micros} />
          <LedgerSection id={id} />
          <NodesSection p={p} />
          <NotificationsSection p={p} />
          <SupportSection id={id} />
        </div>
      )}
    </QueryState>
  );
}

/** After an action the page reads the customer again (and the ledger, when money moved). */
function useRefresh(id: number) {
  const utils = trpc.useUtils();
  return () => {
    void utils.console.customers.get.invalidate({ id });
    void utils.console.customers.ledger.invalidate();
  };
}

function ProfileSection({ p }: { p: CustomerProfile }) {
  const c = p.customer;
  const refresh = useRefresh(c.id);
  const [done, setDone] = useState<string | null>(null);
  const opts = (text: string) => ({ onSuccess: () => (setDone(text), refresh()) });
  const disable = trpc.console.customers.disable.useMutation(
    opts(`${escapeBidi(c.username)} is disabled and signed out.`),
  );
  const enable = trpc.console.customers.enable.useMutation(opts(`${escapeBidi(c.username)} can log in again.`));
  const resend = trpc.console.customers.resend_verification.useMutation({
    onSuccess: (r) => (setDone(r.message), refresh()),
  });
  const failed = [disable, enable, resend].find((m) => m.isError);
  return (
    <section className="console-section" aria-labelledby="profile-h">
      <h2 id="profile-h">
        <CustomerText text={c.username} />
      </h2>
      <dl className="console-facts">
        <dt>Id</dt>
        <dd>{c.id}</dd>
        <dt>Email</dt>
        <dd>
          <CustomerText text={c.email} /> ({c.verified_at ? `verified ${utc(c.verified_at)}` : 'not verified'})
        </dd>
        <dt>Balance</dt>
        <dd data-testid="customer-balance">{usd(c.balance_micros)}</dd>
        <dt>State</dt>
        <dd>{c.disabled_at ? `disabled since ${utc(c.disabled_at)}` : 'active'}</dd>
        <dt>2FA</dt>
        <dd>{c.tfa ? 'on' : 'off'}</dd>
        <dt>Sessions</dt>
        <dd>{c.live_sessions} live</dd>
        <dt>Referrer</dt>
        <dd>{c.referrer ? <CustomerText text={c.referrer} /> : '-'}</dd>
        <dt>Since</dt>
        <dd>{utc(c.created_at)}</dd>
      </dl>
      <div className="console-buttons">
        {c.disabled ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={enable.isPending}
            onClick={() => enable.mutate({ id: c.id })}
          >
            Enable account
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-danger"
            disabled={disable.isPending}
            onClick={() => disable.mutate({ id: c.id })}
          >
            Disable account
          </button>
        )}
        {!c.verified && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={resend.isPending}
            onClick={() => resend.mutate({ id: c.id })}
          >
            Resend verification email
          </button>
        )}
      </div>
      {c.tfa && (
        <ResetTfaForm
          id={c.id}
          onDone={() => {
            setDone(
              `Two-factor authentication is off for ${escapeBidi(c.username)}; they were told by mail and in-app.`,
            );
            refresh();
          }}
        />
      )}
      {failed && <Alert kind="error">{errorMessage(failed.error)}</Alert>}
      {done && !failed && <Alert kind="success">{done}</Alert>}
    </section>
  );
}

/** The reset's success is said by the profile: the form leaves once 2FA is off. */
function ResetTfaForm({ id, onDone }: { id: number; onDone: () => void }) {
  const reset = trpc.console.customers.reset_2fa.useMutation();
  const form = useForm({
    schema: resetTfaInput,
    initial: { identity_check: '' },
    toInput: (v) => ({ id, ...v }),
    submit: (data) => reset.mutateAsync(data),
    successMessage: () => null,
    onSuccess: (_r, f) => {
      f.setValues({ identity_check: '' });
      onDone();
    },
    alertInvalid: true,
  });
  return (
    <form className="console-subform" onSubmit={form.onSubmit} noValidate>
      <h3>Reset two-factor authentication</h3>
      <TextField
        {...form.field('identity_check', 'Identity check')}
        maxLength={500}
        hint="How you checked that the person asking owns this account (kept in the log)."
      />
      <button
        type="submit"
        className="btn btn-danger"
        disabled={form.pending || form.values.identity_check.trim().length < 10}
      >
        Reset 2FA
      </button>
      <FormAlerts form={form} />
    </form>
  );
}

const newKey = () => crypto.randomUUID();

/**
 * The form's idempotency key is made when the form opens and renewed only after a
 * success: a double click, or a retry after a lost answer, posts one transfer.
 */
function AdjustSection({ id, username, balance }: { id: number; username: string; balance: number }) {
  const [key, setKey] = useState(newKey);
  const refresh = useRefresh(id);
  // The key this form saw applied: the echo of a double submit reports the same success.
  const applied = useRef<string | null>(null);
  const adjust = trpc.console.customers.adjust_balance.useMutation();
  const confirm = useConfirm();
  const form = useForm({
    schema: adjustBalanceInput,
    initial: { amount: '', reason: '' },
    toInput: (v) => ({ id, ...v, key }),
    // The amount goes as typed: the server parses the dollars itself. Money moves only after
    // the operator read the amount and the balance it makes.
    submit: async (data, input) => {
      // A debit past the balance the page shows would only be refused after the dialog
      // promised "now $39.98 → -$960.02": said here instead (the server checks it again).
      if (data.amount < 0 && balance + data.amount < 0)
        throw new Error(
          `${escapeBidi(username)}'s balance (${usdExact(balance)}) is lower than the debit of ${usdExact(-data.amount)}.`,
        );
      return confirm.ask({
        title: data.amount > 0 ? 'Add to the balance?' : 'Take from the balance?',
        effect: adjustEffect(username, data.amount, balance),
        confirmLabel: data.amount > 0 ? 'Add' : 'Take away',
        busyLabel: 'Posting…',
        danger: true,
        action: async () => ({ ...(await adjust.mutateAsync(input)), key: input.key }),
      });
    },
    successMessage: (r) => {
      if (!r) return null;
      if (r.applied) applied.current = r.key;
      return r.applied || applied.current === r.key
        ? `Done: ${escapeBidi(username)}'s balance is now ${usd(r.balance_micros)}.`
        : `This adjustment was already applied; the balance is ${usd(r.balance_micros)}.`;
    },
    onSuccess: (r, f) => {
      if (!r) return;
      f.setValues({ amount: '', reason: '' });
      setKey(newKey());
      refresh();
    },
    alertInvalid: true,
  });
  return (
    <section className="console-section" aria-labelledby="adjust-h">
      <h2 id="adjust-h">Adjust the balance</h2>
      <form onSubmit={form.onSubmit} noValidate>
        <TextField
          {...form.field('amount', 'Amount (USD)')}
          hint="25 credits $25; -3.50 takes $3.50 away."
          inputMode="decimal"
        />
        <TextField
          {...form.field('reason', 'Reason')}
          maxLength={200}
          hint="The customer reads it in their transaction history."
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={form.pending || !form.values.amount.trim() || !form.values.reason.trim()}
        >
          Post adjustment
        </button>
      </form>
      <FormAlerts form={form} />
      {confirm.dialog}
    </section>
  );
}

/** "Add $12.50 to alice's balance (now $3.00 → $15.50).", from the balance the page shows. */
function adjustEffect(username: string, amount: number, balance: number): string {
  const who = escapeBidi(username);
  const after = `(now ${usd(balance)} → ${usd(balance + amount)})`;
  return amount > 0
    ? `Add ${usdExact(amount)} to ${who}'s balance ${after}.`
    : `Remove ${usdExact(-amount)} from ${who}'s balance ${after}.`;
}

function LedgerSection({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const ledger = trpc.console.customers.ledger.useQuery({ id, page, per_page: LEDGER_PAGE });
  return (
    <section className="console-section console-wide" aria-labelledby="ledger-h">
      <h2 id="ledger-h">Ledger</h2>
      <QueryState query={ledger} what="The ledger">
        {(l) => (
          <>
            <p>
              Balance <strong>{usd(l.balance_micros)}</strong>, {l.total} transfer{l.total === 1 ? '' : 's'}.
            </p>
            {l.transfers.length > 0 && (
              <table className="console-table">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Kind</th>
                    <th>Description</th>
                    <th>Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {l.transfers.map((t) => (
                    <tr key={t.id}>
                      <td className="nowrap">{utc(t.at)}</td>
                      <td>{t.kind}</td>
                      <td>
                        <CustomerText text={t.description} />
                      </td>
                      <td className="nowrap">{usdExact(t.amount_micros)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Pager page={page} total={l.total} perPage={LEDGER_PAGE} onPage={setPage} label="Ledger pages" />
          </>
        )}
      </QueryState>
    </section>
  );
}

function NodesSection({ p }: { p: CustomerProfile }) {
  return (
    <section className="console-section console-wide" aria-labelledby="nodes-h">
      <h2 id="nodes-h">Nodes</h2>
      {p.nodes.length ? (
        <table className="console-table">
          <thead>
            <tr>
              <th>Node</th>
              <th>Coin</th>
              <th>Plan</th>
              <th>State</th>
              <th>Status</th>
              <th>IP</th>
              <th>Per day</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {p.nodes.map((n) => (
              <tr key={n.id}>
                <td>
                  <CustomerText text={n.alias ?? n.mn_id} /> <span className="muted">#{n.id}</span>
                </td>
                <td>{n.coin_id}</td>
                <td>{n.package}</td>
                <td>{n.state}</td>
                <td>{n.status}</td>
                <td>{n.server_ip ?? '-'}</td>
                <td className="nowrap">{usdExact(n.daily_price_micros)}</td>
                <td className="nowrap">{utc(n.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No nodes.</p>
      )}
    </section>
  );
}

function NotificationsSection({ p }: { p: CustomerProfile }) {
  return (
    <section className="console-section console-wide" aria-labelledby="notes-h">
      <h2 id="notes-h">Notifications</h2>
      {p.notifications.length ? (
        <table className="console-table">
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>Message</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {p.notifications.map((n, i) => (
              <tr key={i}>
                <td className="nowrap">{n.hour}</td>
                <td>
                  <CustomerText text={n.message} />
                </td>
                <td>{n.cleared ? 'cleared' : 'open'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No notifications.</p>
      )}
    </section>
  );
}

/** The customer's support chat, as the inbox shows it. */
function SupportSection({ id }: { id: number }) {
  const conversation = trpc.console.support.of_customer.useQuery({ user_id: id });
  return (
    <section className="console-section console-wide" aria-labelledby="support-h">
      <h2 id="support-h">Support chat</h2>
      <QueryState query={conversation} what="The conversation">
        {(c) =>
          c ? (
            <>
              <ConversationLog c={c} />
              <Link href={`/support?c=${c.id}`}>Answer in the support inbox</Link>
            </>
          ) : (
            <p className="muted">No chat messages from this customer.</p>
          )
        }
      </QueryState>
    </section>
  );
}
