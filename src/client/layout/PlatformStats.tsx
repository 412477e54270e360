import { formatNumber } from '../../shared/format';
import { formatCount } from '../ui/display';
import { trpc } from '../app/trpc';

const PLACEHOLDER = '—';

/**
 * The top bar's platform totals (coins.get_stats), the same for visitors and users.
 * A live `update_stats` event invalidates the query, so logged-in users see new
 * totals without a reload.
 */
export function PlatformStats() {
  const stats = trpc.coins.get_stats.useQuery();
  const d = stats.data?.data;
  return (
    <dl className="platform-stats" aria-label="Platform totals">
      <div>
        <dt>Hosted nodes</dt>
        <dd data-testid="stat-hosted-nodes">{d ? formatCount(d.total_mns) : PLACEHOLDER}</dd>
      </div>
      <div>
        <dt>Total value</dt>
        <dd data-testid="stat-total-value">{d ? `$${formatNumber(d.total_mn_value)}` : PLACEHOLDER}</dd>
      </div>
      <div>
        <dt>Listed projects</dt>
        <dd data-testid="stat-listed-projects">{d ? formatCount(d.supported_mns) : PLACEHOLDER}</dd>
      </div>
    </dl>
  );
}
