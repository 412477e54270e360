import { Suspense, useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../session/session';
import { ProgressBar } from '../app/ProgressBar';
import { PageLoading } from '../ui/Spinner';
import { lazyPart } from '../app/lazyPage';
import { ErrorApp } from './ErrorApp';
import { AppRoutes, MaintenanceRoutes } from './routes';
import { trpc } from '../app/trpc';

// Only a signed-in tab subscribes to live events: a visitor's first load goes without that code.
const LiveEvents = lazyPart(() => import('./live'), 'LiveEvents');
// The support chat follows the page by a moment: its code is not part of the first load (the header's
// button shows once it is here).
const SupportChat = lazyPart(() => import('../support/SupportChat'), 'SupportChat');

/** Start-up decides which app to show: loading, the error app, maintenance, or the real one. */
export function App() {
  const session = useSession();
  return (
    <>
      <ProgressBar />
      {session.startup === 'loading' ? (
        <PageLoading />
      ) : session.startup === 'failed' ? (
        <ErrorApp error={session.startupError} />
      ) : (
        <>
          {session.maintenance ? <MaintenanceRoutes /> : <AppRoutes />}
          {session.user && (
            <Suspense fallback={null}>
              <LiveEvents key={session.token} />
            </Suspense>
          )}
          {/* Keyed by the login: logging out (or in) closes the chat. */}
          {!session.maintenance && (
            <Suspense fallback={null}>
              <SupportChat key={session.token ?? 'guest'} />
            </Suspense>
          )}
          {/* During maintenance private calls answer 503: no visits to report. */}
          {session.user && !session.maintenance && <VisitReporter />}
        </>
      )}
    </>
  );
}

/** Tells the server about each page a logged-in user opens (`auth.visited`). */
function VisitReporter() {
  const [location] = useLocation();
  const search = useSearch();
  const { mutate } = trpc.auth.visited.useMutation();
  const fullPath = location + (search ? `?${search}` : '');
  useEffect(() => {
    mutate({ fullPath });
  }, [fullPath, mutate]);
  return null;
}
