import { errorCode, errorMessage } from '../app/errors';
import { CommunityLinks } from '../layout/support';
import { Logo } from '../ui/Logo';

/**
 * Rendered instead of the app when the start-up calls fail (session/startup.ts): the
 * server cannot be reached or failed, or refused them for the call budget. The community
 * links are the last ones the server sent (kept in this browser). A refusal is no problem
 * on our side: its own words say what to do (wait a second), and the same Refresh does it.
 */
export function ErrorApp({ error }: { error?: unknown }) {
  const refused = errorCode(error) === 'TOO_MANY_REQUESTS';
  return (
    <div className="fallback-app">
      <div className="fallback-card card">
        <Logo />
        <h1>
          {refused
            ? errorMessage(error)
            : 'Oops! Looks like there is a problem on our side. Please try again in a little while'}
        </h1>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Refresh
        </button>
        <CommunityLinks />
      </div>
    </div>
  );
}
