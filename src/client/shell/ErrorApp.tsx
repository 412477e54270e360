import { CommunityLinks } from '../layout/support';
import { Logo } from '../ui/Logo';

/**
 * Rendered instead of the app when the start-up call cannot reach the server. The
 * community links are the last ones the server sent (kept in this browser).
 */
export function ErrorApp() {
  return (
    <div className="fallback-app">
      <div className="fallback-card card">
        <Logo />
        <h1>Oops! Looks like there is a problem on our side. Please try again in a little while</h1>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Refresh
        </button>
        <CommunityLinks />
      </div>
    </div>
  );
}
