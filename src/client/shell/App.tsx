import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../session/session';
import { ProgressBar } from '../app/ProgressBar';
import { PageLoading } from '../ui/Spinner';
import { LiveEvents } from './live';
import { ErrorApp } from './ErrorApp';
import { AppRoutes, MaintenanceRoutes } from './routes';
import { SupportChat } from '../support/SupportChat';
import { trpc } from '../app/trpc';

/** Start-up decides which app to show: loading, the error app, maintenance, or the real one. */
export function App() {
  const session = useSession();
  return (
    <>
      <ProgressBar />
      {session.startup === 'loading' ? (
        <PageLoading />
      ) : session.startup === 'failed' ? (
        <ErrorApp />
      ) : (
        <>
          {session.maintenance ? <MaintenanceRoutes /> : <AppRoutes />}
          {session.user && <LiveEvents key={session.token} />}
          {/* Keyed by the login: logging out (or in) closes the chat. */}
          {!session.maintenance && <SupportChat key={session.token ?? 'guest'} />}
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
