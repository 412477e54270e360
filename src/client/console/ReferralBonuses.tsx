import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { QueryState } from '../ui/QueryState';
import { usd, usdExact, utc } from './format';
import { escapeBidi } from '../../shared/bidi';
import { CustomerText } from './CustomerText';

/**
 * Referral bonuses waiting for an operator (over 10 in 30 days for one referrer, or a card
 * the payment provider did not identify). Approve: the bonus is paid 14 days after the
 * deposit (at once if those are over). Refuse: it is never paid. Both are logged.
 */
export function ReferralBonuses() {
  const utils = trpc.useUtils();
  const list = trpc.console.referrals.held.useQuery();
  const done = { onSuccess: () => void utils.console.referrals.held.invalidate() };
  const approve = trpc.console.referrals.approve.useMutation(done);
  const refuse = trpc.console.referrals.refuse.useMutation(done);
  const busy = approve.isPending || refuse.isPending;
  const failed = approve.error ?? refuse.error;
  return (
    <section className="console-section console-wide" aria-labelledby="refbonus-h">
      <h2 id="refbonus-h">Referral bonuses to approve</h2>
      {failed && <Alert kind="error">{errorMessage(failed)}</Alert>}
      <QueryState query={list} what="The referral bonuses to approve">
        {(l) =>
          l.bonuses.length ? (
            <table className="console-table" aria-label="Referral bonuses to approve">
              <thead>
                <tr>
                  <th>Deposit</th>
                  <th>Referrer</th>
                  <th>Referred</th>
                  <th>Amount</th>
                  <th>Why it waits</th>
                  <th>Spendable from</th>
                  <th>Decision</th>
                </tr>
              </thead>
              <tbody>
                {l.bonuses.map((b) => (
                  <tr key={b.id}>
                    <td className="nowrap">{utc(b.created_at)}</td>
                    <td>{b.referrer != null ? <CustomerText text={b.referrer} /> : `#${b.referrer_id}`}</td>
                    <td>{b.referred != null ? <CustomerText text={b.referred} /> : `#${b.referred_user_id}`}</td>
                    <td className="nowrap">{usdExact(b.amount_micros)}</td>
                    <td>{b.reason}</td>
                    <td className="nowrap">{utc(b.matures_at)}</td>
                    <td className="nowrap">
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        disabled={busy}
                        onClick={() => approve.mutate({ id: b.id })}
                        aria-label={`Approve the bonus of ${escapeBidi(String(b.referrer ?? b.referrer_id))} for ${escapeBidi(String(b.referred ?? b.referred_user_id))}`}
                      >
                        Approve
                      </button>{' '}
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        disabled={busy}
                        onClick={() => refuse.mutate({ id: b.id })}
                        aria-label={`Refuse the bonus of ${escapeBidi(String(b.referrer ?? b.referrer_id))} for ${escapeBidi(String(b.referred ?? b.referred_user_id))}`}
                      >
                        Refuse
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No referral bonuses wait for approval.</p>
          )
        }
      </QueryState>
    </section>
  );
}
