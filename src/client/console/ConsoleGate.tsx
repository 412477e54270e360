import { Link, Redirect } from 'wouter';
import { CONSOLE_NEEDS_2FA } from '../../shared/console';
import { useSession } from '../session/session';
import { lazyPage } from '../app/lazyPage';
import { errorCode, errorMessage } from '../app/errors';
import { QueryError } from '../ui/QueryState';
import { trpc } from '../app/trpc';
import { PageLoading } from '../ui/Spinner';
import { Alert } from '../ui/Alert';

// Fetched only after the server said this is an operator with 2FA on.
const Console = lazyPage(() => import('./Console'), 'Console');

/**
 * The console's door, the only console code a customer who types /console downloads:
 * it asks `console.access` and shows the console only when the server lets the caller
 * in. Visitors, customers and API keys get the app's ordinary 404 page; an operator
 * without 2FA is told how to turn it on.
 */
export function ConsoleGate() {
  const { user, checking, profileError, retryProfile } = useSession();
  const access = trpc.console.access.useQuery(undefined, { enabled: user !== null, retry: false, staleTime: 60_000 });
  if (checking) return <PageLoading />;
  if (profileError) return <QueryError what="Your account" error={profileError} retry={retryProfile} />;
  if (!user) return <Redirect to="~/404" replace />;
  if (access.isPending) return <PageLoading />;
  if (access.isError) {
    if (errorCode(access.error) !== 'NOT_FOUND')
      return <QueryError what="The console" error={access.error} retry={() => void access.refetch()} />;
    if (errorMessage(access.error) === CONSOLE_NEEDS_2FA) return <TurnOn2fa />;
    return <Redirect to="~/404" replace />;
  }
  return <Console />;
}

function TurnOn2fa() {
  return (
    <div className="container page">
      <h1>Operator console</h1>
      <Alert kind="warning">{CONSOLE_NEEDS_2FA}</Alert>
      <p>
        <Link href="~/dashboard/settings" className="btn btn-primary">
          Open Settings
        </Link>
      </p>
    </div>
  );
}
