import { Link } from 'wouter';
import { formatBalance, formatPercent } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { nodeName } from './portfolio';
import { CoinLogo } from '../coins/CoinLogo';
import { Stat } from '../ui/Stat';
import { SimulatedBadge } from '../ui/SimulatedBadge';
import { AliasEditor, useShownAlias } from './AliasEditor';

/** Name (alias or id), "<TICKER> Masternode" (or "Validator"), the deploy link, and Worth and ROI when priced. */
export function NodeHeader({ node }: { node: MasternodeDetail }) {
  const priced = node.worth !== '--' && node.revenue !== '--';
  const shown = useShownAlias(node);
  return (
    <>
      <div className="node-header">
        <CoinLogo id={node.currency} ticker={node.currency_data.ticker} src={node.logo} size={48} />
        <div className="node-header-text">
          <div className="node-title-row">
            <h1>{nodeName(shown)}</h1>
            <AliasEditor node={shown} />
          </div>
          {/* The spec's "<TICKER> Masternode"; a validator is not a masternode. */}
          <p className="muted">
            {node.currency_data.ticker} {node.front_options.validator_evm ? 'Validator' : 'Masternode'}
          </p>
          {node.simulated && <SimulatedBadge />}
        </div>
        <div className="node-header-action">
          <Link href={`/dashboard/deploy?coin=${encodeURIComponent(node.currency)}`} className="btn btn-primary">
            Deploy a node
          </Link>
        </div>
      </div>
      {priced && (
        <section className="stats node-stats" aria-label="Value">
          <Stat label="Worth" value={typeof node.worth === 'number' ? `$${formatBalance(node.worth)}` : MISSING} />
          <Stat label="ROI" value={node.roi === null ? MISSING : formatPercent(node.roi)} />
        </section>
      )}
    </>
  );
}
