import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch, useSearchParams } from 'wouter';
import { useSession } from '../session/session';
import { SiteLayout } from '../layout/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { QueryError } from '../ui/QueryState';
import { pageTitle, safeRedirect } from '../app/site';
import { maintenanceReturnStore } from '../app/storage';
import { lazyPage } from '../app/lazyPage';
import { ErrorBoundary } from '../app/ErrorBoundary';

// Each page is its own chunk, fetched on first visit (the visitor's first load stays small).
const Affiliate = lazyPage(() => import('../account/Affiliate'), 'Affiliate');
const ApiKeys = lazyPage(() => import('../account/ApiKeys'), 'ApiKeys');
// The operator console: a small gate chunk that asks the server first; the console's own
// chunk loads only for an operator (customers and visitors get the 404 page).
const ConsoleGate = lazyPage(() => import('../console/ConsoleGate'), 'ConsoleGate');
const Billing = lazyPage(() => import('../account/Billing'), 'Billing');
const Statement = lazyPage(() => import('../account/Statement'), 'Statement');
const DashboardHome = lazyPage(() => import('../coins/DashboardHome'), 'DashboardHome');
const Deploy = lazyPage(() => import('../deploy/Deploy'), 'Deploy');
const Faq = lazyPage(() => import('../site/Faq'), 'Faq');
const Landing = lazyPage(() => import('../site/Landing'), 'Landing');
const Login = lazyPage(() => import('../auth/Login'), 'Login');
const Maintenance = lazyPage(() => import('./Maintenance'), 'Maintenance');
const Masternode = lazyPage(() => import('../nodes/Masternode'), 'Masternode');
const NotFound = lazyPage(() => import('./NotFound'), 'NotFound');
const NotificationSettings = lazyPage(() => import('../account/NotificationSettings'), 'NotificationSettings');
const Portfolio = lazyPage(() => import('../portfolio/Portfolio'), 'Portfolio');
const Pricing = lazyPage(() => import('../site/Pricing'), 'Pricing');
const Recover = lazyPage(() => import('../auth/Recover'), 'Recover');
const Referral = lazyPage(() => import('../site/Referral'), 'Referral');
const Register = lazyPage(() => import('../auth/Register'), 'Register');
const Reset = lazyPage(() => import('../auth/Reset'), 'Reset');
const Setup = lazyPage(() => import('../auth/Setup'), 'Setup');
const Settings = lazyPage(() => import('../account/Settings'), 'Settings');
const Staking = lazyPage(() => import('../nodes/Staking'), 'Staking');
const Verify = lazyPage(() => import('../auth/Verify'), 'Verify');
const ConfirmChatEmail = lazyPage(() => import('../support/ConfirmChatEmail'), 'ConfirmChatEmail');
const ViewCoin = lazyPage(() => import('../coins/ViewCoin'), 'ViewCoin');
// The dashboard's frame (top bar, menus, notifications, runway) is its own chunk too: a
// visitor's first page is the site layout, and the entry stays within its budget.
const DashboardShell = lazyPage(() => import('../layout/DashboardShell'), 'DashboardShell') as ComponentType<{
  settingsMenu: boolean;
  children: ReactNode;
}>;

/** public: anyone; guest: logged-in users go to /dashboard; user: visitors go to /login. */
type Access = 'public' | 'guest' | 'user';
/** site: marketing header and footer; dashboard: top bar; account: top bar and the settings side menu. */
type Layout = 'site' | 'dashboard' | 'account';

type RouteDef = { path: string; page: ComponentType; access: Access; layout: Layout; title?: string };

// Access as in platform-and-account.md section 2.
export const ROUTES: RouteDef[] = [
  { path: '/', page: Landing, access: 'public', layout: 'site' },
  { path: '/pricing', page: Pricing, access: 'public', layout: 'site', title: 'Pricing' },
  { path: '/faq', page: Faq, access: 'public', layout: 'site', title: 'FAQ' },
  { path: '/verify', page: Verify, access: 'public', layout: 'site', title: 'Verify email' },
  // SUPPORT_CONFIRM_PATH (shared/schemas/support.ts), written out: importing it would pull zod into the entry chunk.
  { path: '/support/confirm', page: ConfirmChatEmail, access: 'public', layout: 'site', title: 'Confirm your email' },
  { path: '/maintenance', page: Maintenance, access: 'public', layout: 'site', title: 'Maintenance' },
  { path: '/ref/:ref', page: Referral, access: 'public', layout: 'site' },
  // The first-run link the server prints while no operator exists (src/server/auth/README.md).
  { path: '/setup/:token', page: Setup, access: 'public', layout: 'site', title: 'Set up Nodekeep' },
  { path: '/404', page: NotFound, access: 'public', layout: 'site', title: 'Page not found' },

  { path: '/login', page: Login, access: 'guest', layout: 'site', title: 'Login' },
  { path: '/register', page: Register, access: 'guest', layout: 'site', title: 'Register' },
  { path: '/recover', page: Recover, access: 'guest', layout: 'site', title: 'Lost password' },
  { path: '/reset', page: Reset, access: 'guest', layout: 'site', title: 'Reset password' },

  { path: '/dashboard', page: DashboardHome, access: 'public', layout: 'dashboard', title: 'Coins' },
  { path: '/dashboard/view_coin', page: ViewCoin, access: 'public', layout: 'dashboard', title: 'Coin' },
  { path: '/dashboard/portfolio', page: Portfolio, access: 'user', layout: 'dashboard', title: 'Portfolio' },
  { path: '/dashboard/deploy', page: Deploy, access: 'user', layout: 'dashboard', title: 'Deploy' },
  { path: '/dashboard/masternode/:mn', page: Masternode, access: 'user', layout: 'dashboard', title: 'Masternode' },
  { path: '/dashboard/staking', page: Staking, access: 'user', layout: 'dashboard', title: 'Staking' },
  { path: '/dashboard/affiliate', page: Affiliate, access: 'user', layout: 'dashboard', title: 'Affiliate' },
  { path: '/dashboard/settings', page: Settings, access: 'user', layout: 'account', title: 'Settings' },
  { path: '/dashboard/billing', page: Billing, access: 'user', layout: 'account', title: 'Billing' },
  {
    path: '/dashboard/billing/statement',
    page: Statement,
    access: 'user',
    layout: 'account',
    title: 'Statement',
  },
  {
    path: '/dashboard/notifications',
    page: NotificationSettings,
    access: 'user',
    layout: 'account',
    title: 'Notifications',
  },
  { path: '/dashboard/api', page: ApiKeys, access: 'user', layout: 'account', title: 'API' },
];

export function AppRoutes() {
  return (
    <Switch>
      {ROUTES.map((r) => (
        <Route key={r.path} path={r.path}>
          <Screen def={r} />
        </Route>
      ))}
      {consoleRoute}
      <Route>
        <Redirect to="/404" replace />
      </Route>
    </Switch>
  );
}

const consoleRoute = (
  <Route path="/console" nest>
    <ErrorBoundary home="/dashboard">
      <Suspense fallback={<PageLoading />}>
        <ConsoleGate />
      </Suspense>
    </ErrorBoundary>
  </Route>
);

/** During maintenance only /login and /maintenance exist; everything else shows /maintenance. */
export function MaintenanceRoutes() {
  const login = ROUTES.find((r) => r.path === '/login')!;
  const maintenance = ROUTES.find((r) => r.path === '/maintenance')!;
  return (
    <Switch>
      <Route path="/login">
        <Screen def={login} minimal />
      </Route>
      <Route path="/maintenance">
        <Screen def={maintenance} minimal />
      </Route>
      {/* The console is where an operator switches maintenance off. */}
      {consoleRoute}
      <Route>
        <ToMaintenance />
      </Route>
    </Switch>
  );
}

/** Sends the tab to /maintenance, remembering where it was so it can go back when maintenance ends. */
function ToMaintenance() {
  const [location] = useLocation();
  const search = useSearch();
  useEffect(() => {
    maintenanceReturnStore.set(location + (search ? `?${search}` : '') + window.location.hash);
  }, [location, search]);
  return <Redirect to="/maintenance" replace />;
}

/** One route's page: its title, its access guard and its layout. */
function Screen({ def, minimal = false }: { def: RouteDef; minimal?: boolean }) {
  useEffect(() => {
    document.title = pageTitle(def.title);
  }, [def.title]);
  const Page = def.page;
  const [location] = useLocation();
  // Inside the layout, so the header and menus stay while a page loads or fails.
  const guarded = (
    <ErrorBoundary key={location} home={def.layout === 'site' ? '/' : '/dashboard'}>
      <Guard access={def.access}>
        <Suspense fallback={<PageLoading />}>
          <Page />
        </Suspense>
      </Guard>
    </ErrorBoundary>
  );
  if (def.layout === 'site') return <SiteLayout minimal={minimal}>{guarded}</SiteLayout>;
  return (
    <Suspense fallback={<PageLoading />}>
      <DashboardShell settingsMenu={def.layout === 'account'}>{guarded}</DashboardShell>
    </Suspense>
  );
}

function Guard({ access, children }: { access: Access; children: ReactNode }) {
  if (access === 'user') return <RequireUser>{children}</RequireUser>;
  if (access === 'guest') return <GuestOnly>{children}</GuestOnly>;
  return children;
}

function RequireUser({ children }: { children: ReactNode }) {
  const { user, checking, profileError, retryProfile } = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (checking) return <PageLoading />;
  // Signed in, but the profile was refused or did not arrive: the login page would be a lie.
  if (profileError) return <QueryError what="Your account" error={profileError} retry={retryProfile} />;
  if (!user) {
    const wanted = location + (search ? `?${search}` : '');
    return <Redirect to={`/login?redirect=${encodeURIComponent(wanted)}`} replace />;
  }
  return children;
}

/**
 * Login, register, recover and reset are for visitors. A logged-in user goes to
 * /dashboard, or to the page /login was asked to return to.
 */
function GuestOnly({ children }: { children: ReactNode }) {
  const { user, checking } = useSession();
  const [params] = useSearchParams();
  if (checking) return <PageLoading />;
  if (user) return <Redirect to={safeRedirect(params.get('redirect')) ?? '/dashboard'} replace />;
  return children;
}
