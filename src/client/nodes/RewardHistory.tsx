import { Link } from 'wouter';
import type { GetRewardsOutput } from '../../shared/schemas/rewards';
import { trpc } from '../app/trpc';
import { QueryState } from '../ui/QueryState';
import { TableScroll } from '../ui/TableScroll';
import { nodeName } from './portfolio';
import { relativeTime, utcDateTime } from './nodeTime';
import { rewardAmountText, rewardPriceText, rewardSumText, rewardUsdText } from './rewards';
import './rewards.css';

/**
 * The rewards the portfolio's nodes (or one node, `masternode`) were paid, newest first,
 * each valued at the price the platform held when it came. A refresh_masternodes event
 * refetches it (a new reward comes with one).
 */
export function RewardHistory({ masternode }: { masternode?: string }) {
  const rewards = trpc.nodes.get_rewards.useQuery(masternode === undefined ? {} : { masternode });
  const portfolio = masternode === undefined;
  return (
    <section className="card table-card reward-history" aria-labelledby="rewards-title">
      <div className="card-head card-head-padded">
        <h2 id="rewards-title">Rewards</h2>
        {rewards.data && !rewards.data.simulated_only && rewards.data.total.count > 0 && (
          <span className="muted small" data-testid="rewards-sums">
            Last 30 days: {rewardSumText(rewards.data.last_30_days)}. All time: {rewardSumText(rewards.data.total)}.
          </span>
        )}
      </div>
      <QueryState query={rewards} what="The rewards" loadingLabel="Loading rewards…">
        {(data) => <RewardTable data={data} portfolio={portfolio} />}
      </QueryState>
    </section>
  );
}

function RewardTable({ data, portfolio }: { data: GetRewardsOutput; portfolio: boolean }) {
  if (data.simulated_only)
    return (
      <p className="table-empty" data-testid="rewards-empty">
        {portfolio
          ? 'No rewards: your nodes are simulated, and simulated nodes earn none.'
          : 'No rewards: this node is simulated, and simulated nodes earn none.'}
      </p>
    );
  if (data.rewards.length === 0)
    return (
      <p className="table-empty" data-testid="rewards-empty">
        No rewards yet. Each reward is listed here when it arrives, with its value in USD at that time.
      </p>
    );
  return (
    <TableScroll>
      <table className="table" aria-label="Rewards">
        <thead>
          <tr>
            <th scope="col">Paid</th>
            {portfolio && <th scope="col">Node</th>}
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Price then
            </th>
            <th scope="col" className="num">
              Value then
            </th>
          </tr>
        </thead>
        <tbody>
          {data.rewards.map((r) => (
            <tr key={`${r.mn_id}-${r.height}`} data-height={r.height}>
              <td>
                <time dateTime={r.paid_at} title={utcDateTime(r.paid_at)}>
                  {relativeTime(r.paid_at)}
                </time>
              </td>
              {portfolio && (
                <td>
                  <Link href={`/dashboard/masternode/${encodeURIComponent(r.mn_id)}`}>{nodeName(r)}</Link>
                </td>
              )}
              <td className="num">{rewardAmountText(r)}</td>
              <td className="num">{rewardPriceText(r)}</td>
              <td className="num" data-col="usd">
                {rewardUsdText(r)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
