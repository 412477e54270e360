import { useOperatorCommand } from './useOperatorCommand';
import { useId, useState } from 'react';
import { createGiftCodesInput, type GiftCodeRow } from '../../shared/schemas/console-money';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { QueryState } from '../ui/QueryState';
import { useForm } from '../ui/useForm';
import { usd, usdExact, utc } from './format';
import { ReferralBonuses } from './ReferralBonuses';

import { escapeBidi } from '../../shared/bidi';
import { expiryText } from '../../shared/format';
import { CustomerText } from './CustomerText';

/** Open debts, gift codes, card sessions, crypto deposits and currencies, the daily charge's runs, and referral bonuses to approve. */
export function Money() {
  return (
    <div className="console-money">
      <Debts />
      <GiftCodes />
      <ChargeRuns />
      <Currencies />
      <Deposits />
      <CardSessions />
      <ReferralBonuses />
    </div>
  );
}

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

type Made = { batch: string; codes: string[]; amount_micros: number; expires_at: string };

function GiftCodes() {
  const [made, setMade] = useState<Made | null>(null);
  const utils = trpc.useUtils();
  const list = trpc.console.money.gift_codes.useQuery({});
  const create = trpc.console.money.create_gift_codes.useMutation();
  const form = useForm({
    schema: createGiftCodesInput,
    initial: { amount: '', count: '1', expires: inAYear() },
    toInput: (v) => ({ ...v, count: Number(v.count) }),
    // The amount goes as typed: the server parses the dollars itself.
    submit: (_data, input) => {
      setMade(null);
      return create.mutateAsync(input);
    },
    // The new codes are the success.
    successMessage: () => null,
    onSuccess: (r) => {
      setMade(r);
      void utils.console.money.gift_codes.invalidate();
    },
    alertInvalid: true,
  });
  const revoke = trpc.console.money.revoke_gift_codes.useMutation({
    onSuccess: () => void utils.console.money.gift_codes.invalidate(),
  });
  return (
    <section className="console-section console-wide" aria-labelledby="gift-h">
      <h2 id="gift-h">Gift codes</h2>
      <form className="console-filters" aria-label="Create gift codes" onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('amount', 'Amount (USD)')} inputMode="decimal" />
        <TextField {...form.field('count', 'How many')} inputMode="numeric" />
        <TextField {...form.field('expires', 'Valid through (UTC day)')} type="date" />
        <button type="submit" className="btn btn-primary" disabled={form.pending || !form.values.amount.trim()}>
          Create codes
        </button>
      </form>
      <FormAlerts form={form} />
      {made && (
        <div className="console-made" aria-label="New gift codes">
          <Alert kind="success">
            {made.codes.length} code{made.codes.length === 1 ? '' : 's'} of {usd(made.amount_micros)} (batch{' '}
            {made.batch}), valid {expiryText(made.expires_at)}. Copy them now: they are shown only this once and are not
            stored.
          </Alert>
          <pre className="console-codes" data-testid="new-codes">
            {made.codes.join('\n')}
          </pre>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => void navigator.clipboard?.writeText(made.codes.join('\n'))}
          >
            Copy codes
          </button>{' '}
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setMade(null)}>
            Hide codes
          </button>
        </div>
      )}
      {revoke.isError && <Alert kind="error">{errorMessage(revoke.error)}</Alert>}
      <QueryState query={list} what="The gift codes">
        {(l) =>
          l.codes.length ? (
            <>
              <p>
                {l.codes.length} code{l.codes.length === 1 ? '' : 's'}.{' '}
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => downloadCsv(l.codes)}>
                  Export CSV
                </button>
              </p>
              <table className="console-table" aria-label="Gift codes">
                <thead>
                  <tr>
                    <th>Id</th>
                    <th>Code ends</th>
                    <th>Amount</th>
                    <th>Batch</th>
                    <th>Valid</th>
                    <th>State</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {l.codes.map((c) => (
                    <tr key={c.id}>
                      <td>{c.id}</td>
                      <td>…{c.hint}</td>
                      <td className="nowrap">{usd(c.amount_micros)}</td>
                      <td>
                        {c.batch}{' '}
                        {c.state === 'unused' && (
                          <button
                            type="button"
                            className="btn btn-link btn-sm"
                            disabled={revoke.isPending}
                            onClick={() => revoke.mutate({ batch: c.batch })}
                            aria-label={`Revoke unused codes of batch ${c.batch}`}
                          >
                            revoke batch
                          </button>
                        )}
                      </td>
                      <td className="nowrap">{expiryText(c.expires_at)}</td>
                      <td>
                        {c.state === 'redeemed'
                          ? `redeemed by ${escapeBidi(c.redeemed_by ?? '')} ${utc(c.redeemed_at!)}`
                          : c.state}
                      </td>
                      <td>
                        {c.state === 'unused' && (
                          <button
                            type="button"
                            className="btn btn-secondary btn-sm"
                            disabled={revoke.isPending}
                            onClick={() => revoke.mutate({ ids: [c.id] })}
                            aria-label={`Revoke code ${c.id}`}
                          >
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <p className="muted">No gift codes yet.</p>
          )
        }
      </QueryState>
    </section>
  );
}

/** The list as a CSV file (no codes: only their last four characters are known here). */
function downloadCsv(rows: GiftCodeRow[]) {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    // A leading = + - @ would be read as a formula by a spreadsheet.
    const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
    return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const head = [
    'id',
    'code_ends',
    'amount_usd',
    'batch',
    'created_at',
    'expires_at',
    'state',
    'redeemed_by',
    'redeemed_at',
    'revoked_at',
  ];
  const lines = rows.map((r) =>
    [
      r.id,
      r.hint,
      usdExact(r.amount_micros).replace('$', ''),
      r.batch,
      r.created_at,
      r.expires_at,
      r.state,
      r.redeemed_by,
      r.redeemed_at,
      r.revoked_at,
    ]
      .map(cell)
      .join(','),
  );
  const blob = new Blob([[head.join(','), ...lines].join('\n') + '\n'], { type: 'text/csv' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `gift-codes-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function ChargeRuns() {
  const runs = trpc.console.money.charge_runs.useQuery();
  return (
    <section className="console-section console-wide" aria-labelledby="runs-h">
      <h2 id="runs-h">Daily charge runs</h2>
      <QueryState query={runs} what="The charge runs">
        {(r) =>
          r.days.length ? (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Day (UTC)</th>
                  <th>Run started</th>
                  <th>Run completed</th>
                  <th>Daily charges</th>
                  <th>Initial charges</th>
                  <th>Reminders sent</th>
                </tr>
              </thead>
              <tbody>
                {r.days.map((d) => (
                  <tr key={d.day}>
                    <td className="nowrap">{d.day}</td>
                    <td className="nowrap">{d.started_at ? utc(d.started_at) : '-'}</td>
                    <td className="nowrap">{d.completed_at ? utc(d.completed_at) : d.started_at ? 'running' : '-'}</td>
                    <td className="nowrap">
                      {usd(d.daily_micros)} ({d.daily_transfers})
                    </td>
                    <td className="nowrap">
                      {usd(d.initial_micros)} ({d.initial_transfers})
                    </td>
                    <td className="nowrap">{d.reminded_at ? utc(d.reminded_at) : '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No charges yet.</p>
          )
        }
      </QueryState>
    </section>
  );
}

function Currencies() {
  const command = useOperatorCommand();
  const utils = trpc.useUtils();
  const list = trpc.console.money.currencies.useQuery();
  const set = trpc.console.money.set_currency.useMutation({
    onSuccess: () => void utils.console.money.currencies.invalidate(),
  });
  return (
    <section className="console-section console-wide" aria-labelledby="cur-h">
      <h2 id="cur-h">Accepted currencies</h2>
      {set.isError && <Alert kind="error">{errorMessage(set.error)}</Alert>}
      <QueryState query={list} what="The currencies">
        {(l) =>
          l.currencies.length ? (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Id</th>
                  <th>Currency</th>
                  <th>Watcher</th>
                  <th>Confirmations</th>
                  <th>Minimum</th>
                  <th>Addresses</th>
                  <th>State</th>
                </tr>
              </thead>
              <tbody>
                {l.currencies.map((c) => (
                  <tr key={c.id}>
                    <td>{c.id}</td>
                    <td>
                      {c.label} ({c.ticker})
                    </td>
                    <td>
                      {c.kind} <span className="console-detail">{c.rpc_url}</span>
                    </td>
                    <td>{c.confirmations}</td>
                    <td className="nowrap">{usd(c.minimum_micros)}</td>
                    <td>{c.addresses}</td>
                    <td>
                      {c.enabled ? 'offered' : 'off'}{' '}
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        disabled={set.isPending}
                        onClick={() => set.mutate({ id: c.id, enabled: !c.enabled })}
                      >
                        {c.enabled ? 'Disable' : 'Enable'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">
              No deposit currency is configured (<code>{command('deposits add')}</code>).
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

const DEPOSIT_STATES = ['pending', 'credited', 'below_minimum', 'removed'] as const;

function Deposits() {
  const [state, setState] = useState<(typeof DEPOSIT_STATES)[number] | ''>('');
  const list = trpc.console.money.deposits.useQuery({ state: state || undefined });
  const id = useId();
  return (
    <section className="console-section console-wide" aria-labelledby="dep-h">
      <h2 id="dep-h">Crypto deposits</h2>
      <div className="console-filters">
        <div className="field">
          <label htmlFor={id}>State</label>
          <select id={id} value={state} onChange={(e) => setState(e.target.value as typeof state)}>
            <option value="">All</option>
            {DEPOSIT_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState query={list} what="The deposits">
        {(l) =>
          l.deposits.length ? (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Seen</th>
                  <th>Customer</th>
                  <th>Currency</th>
                  <th>Amount</th>
                  <th>Confirmations</th>
                  <th>State</th>
                  <th>USD</th>
                  <th>Transaction</th>
                </tr>
              </thead>
              <tbody>
                {l.deposits.map((d) => (
                  <tr key={d.id}>
                    <td className="nowrap">{utc(d.seen_at)}</td>
                    <td>{d.username ? <CustomerText text={d.username} /> : `#${d.user_id}`}</td>
                    <td>{d.currency_id}</td>
                    <td>{d.amount}</td>
                    <td>{d.confirmations}</td>
                    <td>{d.state}</td>
                    <td className="nowrap">{d.usd_micros === null ? '-' : usdExact(d.usd_micros)}</td>
                    <td className="console-detail">{d.txid}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No deposits.</p>
          )
        }
      </QueryState>
    </section>
  );
}

const CARD_STATES = ['pending', 'paid', 'cancelled', 'expired'] as const;

function CardSessions() {
  const [status, setStatus] = useState<(typeof CARD_STATES)[number] | ''>('');
  const list = trpc.console.money.card_sessions.useQuery({ status: status || undefined });
  const id = useId();
  return (
    <section className="console-section console-wide" aria-labelledby="card-h">
      <h2 id="card-h">Card sessions</h2>
      <div className="console-filters">
        <div className="field">
          <label htmlFor={id}>Status</label>
          <select id={id} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">All</option>
            {CARD_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState query={list} what="The card sessions">
        {(l) =>
          l.sessions.length ? (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Customer</th>
                  <th>Amount</th>
                  <th>Status</th>
                  <th>Updated</th>
                  <th>Session</th>
                </tr>
              </thead>
              <tbody>
                {l.sessions.map((s) => (
                  <tr key={s.id}>
                    <td className="nowrap">{utc(s.created_at)}</td>
                    <td>{s.username ? <CustomerText text={s.username} /> : `#${s.user_id}`}</td>
                    <td className="nowrap">{usd(s.amount_micros)}</td>
                    <td>{s.status}</td>
                    <td className="nowrap">{utc(s.updated_at)}</td>
                    <td className="console-detail">{s.id}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No card sessions.</p>
          )
        }
      </QueryState>
    </section>
  );
}

/** Customers who owe money after a card payment was refunded or disputed; their next deposits pay it. */
function Debts() {
  const list = trpc.console.money.debts.useQuery();
  return (
    <section className="console-section" aria-labelledby="debts-h">
      <h2 id="debts-h">Open debts</h2>
      <QueryState query={list} what="The open debts">
        {(l) =>
          l.debts.length ? (
            <table className="console-table" aria-label="Open debts">
              <thead>
                <tr>
                  <th>Customer</th>
                  <th>Owes</th>
                </tr>
              </thead>
              <tbody>
                {l.debts.map((d) => (
                  <tr key={d.user_id}>
                    <td>{d.username ? <CustomerText text={d.username} /> : `#${d.user_id}`}</td>
                    <td className="nowrap">{usd(d.owed_micros)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No customer owes anything.</p>
          )
        }
      </QueryState>
    </section>
  );
}
