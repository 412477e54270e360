import { Link } from 'wouter';
import { formatBalance } from '../../shared/format';
import { useSession } from '../session/session';
import { GuestLinks } from '../session/GuestLinks';
import { Logo } from '../ui/Logo';
import { SupportLauncher } from './SupportLauncher';
import { TopBarRunway } from './Runway';
import { NotificationsMenu } from './NotificationsMenu';
import { PlatformStats } from './PlatformStats';
import { UserMenu } from './UserMenu';

/** The dashboard's dark top bar: platform totals, then the balance with its runway and menus, or login links. */
export function TopBar() {
  const { user } = useSession();
  return (
    <header className="topbar">
      <div className="container topbar-inner">
        <Logo to="/dashboard" />
        <PlatformStats />
        <div className="topbar-actions">
          <SupportLauncher />
          {user ? (
            <>
              <Link href="/dashboard/billing" className="balance" title="Account balance">
                <span className="sr-only">Balance: </span>
                <span data-testid="topbar-balance">${formatBalance(user.balance)}</span>
                <TopBarRunway />
              </Link>
              <NotificationsMenu />
              <UserMenu />
            </>
          ) : (
            <GuestLinks loginClassName="topbar-link" />
          )}
        </div>
      </div>
    </header>
  );
}
