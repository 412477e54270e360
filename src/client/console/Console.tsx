import { useOperatorCommand } from './useOperatorCommand';
import { Suspense, useEffect } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { pageTitle } from '../app/site';
import { PageLoading } from '../ui/Spinner';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { CONSOLE_PAGES, type ConsolePage } from './pages';
import './console.css';

/** The console's shell: its own header and nav (no customer chrome), one page below. */
export function Console() {
  const [location] = useLocation();
  return (
    <div className="console">
      <header className="console-header">
        <div className="console-header-inner">
          <strong className="console-brand">Nodekeep console</strong>
          <nav className="console-nav" aria-label="Console">
            {CONSOLE_PAGES.filter((p) => p.nav !== false).map((p) => (
              <Link
                key={p.path}
                href={p.path}
                className="console-nav-link"
                aria-current={
                  location === p.path || (p.path !== '/' && location.startsWith(`${p.path}/`)) ? 'page' : undefined
                }
              >
                {p.label}
              </Link>
            ))}
          </nav>
          <Link href="~/dashboard" className="console-exit">
            Dashboard
          </Link>
        </div>
      </header>
      <main className="console-main">
        <Switch>
          {CONSOLE_PAGES.map((p) => (
            <Route key={p.path} path={p.path}>
              <ConsoleScreen page={p} />
            </Route>
          ))}
          <Route>
            <Redirect to="~/404" replace />
          </Route>
        </Switch>
      </main>
    </div>
  );
}

function ConsoleScreen({ page }: { page: ConsolePage }) {
  const command = useOperatorCommand();
  useEffect(() => {
    document.title = pageTitle(`Console: ${page.label}`);
  }, [page.label]);
  const [location] = useLocation();
  const Page = page.page;
  return (
    <ErrorBoundary key={location} home="~/console">
      <h1 className="console-title">{page.label}</h1>
      {Page ? (
        <Suspense fallback={<PageLoading />}>
          <Page />
        </Suspense>
      ) : (
        <p className="muted">
          This is done on the command line: <code>{command('help')}</code> lists its commands.
        </p>
      )}
    </ErrorBoundary>
  );
}
