import type { CoinDetail } from '../../shared/schemas/coins';
import { formatCount } from '../ui/display';

const NONE = '—';

/**
 * The wallet and latest block come from the platform's own nodes of this coin; until
 * it runs some, the server sends null and the card says why the figures are missing.
 */
export function ChainData({ wallet, latestBlock }: { wallet: CoinDetail['wallet']; latestBlock: number | null }) {
  const missing = wallet === null || latestBlock === null;
  return (
    <section className="card chain-data" aria-labelledby="chain-title">
      <h2 id="chain-title">Wallet and latest block</h2>
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
      {missing && <p className="muted small">Chain data appears once the platform runs nodes of this coin.</p>}
    </section>
  );
}
