import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useSession } from '../session/session';
import { AlertBanner } from './AlertBanner';
import { TopBar } from './TopBar';
import { RunwayBanner } from './Runway';
import { SiteFooter } from './SiteLayout';
import './dashboard.css';

const DASHBOARD_NAV = [
  { href: '/dashboard', label: 'Coins' },
  { href: '/dashboard/portfolio', label: 'Portfolio', private: true },
  { href: '/dashboard/deploy', label: 'Deploy', private: true },
  { href: '/dashboard/staking', label: 'Staking', private: true },
  { href: '/dashboard/affiliate', label: 'Affiliate', private: true },
];

const SETTINGS_NAV = [
  { href: '/dashboard/settings', label: 'Settings' },
  { href: '/dashboard/billing', label: 'Billing' },
  { href: '/dashboard/notifications', label: 'Notifications' },
  { href: '/dashboard/api', label: 'API' },
];

/** Every /dashboard page: top bar, profile alert, the low-runway banner, section tabs; account pages add the side menu. */
export function DashboardShell({ children, settingsMenu = false }: { children: ReactNode; settingsMenu?: boolean }) {
  const { user } = useSession();
  const [location] = useLocation();
  const nav = DASHBOARD_NAV.filter((item) => user || !item.private);
  return (
    <div className="dashboard">
      <TopBar />
      {user?.alert && <AlertBanner alert={user.alert} />}
      {user && <RunwayBanner />}
      <nav className="subnav" aria-label="Dashboard">
        <div className="container subnav-inner">
          {nav.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              className="subnav-link"
              aria-current={location === item.href ? 'page' : undefined}
            >
              {item.label}
            </Link>
          ))}
        </div>
      </nav>
      <main className="container dashboard-main">
        {settingsMenu ? (
          <div className="with-side-menu">
            <nav className="side-menu" aria-label="Account">
              {SETTINGS_NAV.map((item) => (
                <Link
                  key={item.href}
                  href={item.href}
                  className="side-menu-link"
                  aria-current={location === item.href ? 'page' : undefined}
                >
                  {item.label}
                </Link>
              ))}
            </nav>
            <div className="side-menu-content">{children}</div>
          </div>
        ) : (
          children
        )}
      </main>
      <SiteFooter />
    </div>
  );
}

/** The heading row of a dashboard page. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-header-extra">{children}</div>}
    </div>
  );
}
