import { coinNode } from '../../shared/english';
import { Link } from 'wouter';
import type { CoinDetail } from '../../shared/schemas/coins';
import { CoinLogo } from './CoinLogo';

/** Logo, name, badges and the deploy button: disabled in maintenance or while coming soon, absent for a delisted coin. */
export function CoinHeader({ coin }: { coin: CoinDetail }) {
  return (
    <div className="coin-header">
      <CoinLogo id={coin.id} ticker={coin.ticker} src={coin.logo} size={52} />
      <div className="coin-header-text">
        <h1>
          {coin.label} <span className="coin-ticker">{coin.ticker}</span>
        </h1>
        <div className="coin-badges">
          {coin.kyd && (
            <span
              className="flag flag-success"
              title="Know Your Developer: the team behind this coin has been verified"
            >
              KYD verified
            </span>
          )}
          {coin.coming_soon && <span className="flag flag-info">Coming soon</span>}
          {coin.maintenance && <span className="flag flag-warning">Maintenance</span>}
          {coin.delisted && <span className="flag flag-danger">Delisted</span>}
        </div>
      </div>
      {!coin.delisted && (
        <div className="coin-header-action">
          {coin.maintenance || coin.coming_soon ? (
            <>
              <button type="button" className="btn btn-primary" disabled aria-describedby="deploy-paused">
                Deploy a node
              </button>
              <p id="deploy-paused" className="muted small">
                {coin.coming_soon
                  ? `${coinNode(coin.label, true)} are coming soon.`
                  : 'Deployments are paused for maintenance.'}
              </p>
            </>
          ) : (
            <Link href={`/dashboard/deploy?coin=${encodeURIComponent(coin.id)}`} className="btn btn-primary">
              Deploy a node
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
