import { Link } from 'wouter';
import { formatBalance } from '../../shared/format';
import { useSession } from '../auth';
import { Logo } from './Logo';
import { NotificationsMenu } from './NotificationsMenu';
import { UserMenu } from './UserMenu';

/**
 * The dashboard's dark top bar. Platform totals (hosted nodes, total value, listed
 * projects) come from the coin catalog of the next issue; until then they read "—".
 */
export function TopBar() {
  const { user } = useSession();
  return (
    <header className="topbar">
      <div className="container topbar-inner">
        <Logo to="/dashboard" />
        <dl className="platform-stats" aria-label="Platform totals">
          <div>
            <dt>Hosted nodes</dt>
            <dd>—</dd>
          </div>
          <div>
            <dt>Total value</dt>
            <dd>—</dd>
          </div>
          <div>
            <dt>Listed projects</dt>
            <dd>—</dd>
          </div>
        </dl>
        <div className="topbar-actions">
          {user ? (
            <>
              <Link href="/dashboard/billing" className="balance" title="Account balance">
                <span className="sr-only">Balance: </span>
                <span data-testid="topbar-balance">${formatBalance(user.balance)}</span>
              </Link>
              <NotificationsMenu />
              <UserMenu />
            </>
          ) : (
            <>
              <Link href="/login" className="topbar-link">
                Login
              </Link>
              <Link href="/register" className="btn btn-primary btn-sm">
                Register
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
