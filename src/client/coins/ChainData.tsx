import type { CoinDetail } from '../../shared/schemas/coins';
import { formatCount } from '../ui/display';
import { SimulatedBadge } from '../ui/SimulatedBadge';

const NONE = '—';

/**
 * The wallet and latest block come from the platform's own nodes of this coin (what
 * they reported lately); figures from simulated demo nodes carry the Simulated badge.
 */
export function ChainData({
  wallet,
  latestBlock,
  simulated,
}: {
  wallet: CoinDetail['wallet'];
  latestBlock: number | null;
  simulated: boolean;
}) {
  const missing = wallet === null || latestBlock === null;
  return (
    <section className="card chain-data" aria-labelledby="chain-title">
      <h2 id="chain-title">Wallet and latest block {simulated && <SimulatedBadge what="chain" />}</h2>
      <dl className="details">
        <div>
          <dt>Version</dt>
          <dd>{wallet?.version || NONE}</dd>
        </div>
        <div>
          <dt>Protocol version</dt>
          <dd>{wallet?.protocol_version || NONE}</dd>
        </div>
        <div>
          <dt>Connections</dt>
          <dd>{wallet?.connections != null ? formatCount(wallet.connections) : NONE}</dd>
        </div>
        <div>
          <dt>Latest block</dt>
          <dd data-testid="latest-block">{latestBlock !== null ? formatCount(latestBlock) : NONE}</dd>
        </div>
      </dl>
      {missing && <p className="muted small">No node of this coin has reported its chain to the platform lately.</p>}
    </section>
  );
}
