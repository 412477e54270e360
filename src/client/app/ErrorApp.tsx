import { COMMUNITY_LINKS } from '../site/site';
import { Logo } from '../ui/Logo';

/** Rendered instead of the app when the start-up call cannot reach the server. */
export function ErrorApp() {
  return (
    <div className="fallback-app">
      <div className="fallback-card card">
        <Logo />
        <h1>Oops! Looks like there is a problem on our side. Please try again in a little while</h1>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Refresh
        </button>
        <nav className="community-links" aria-label="Community">
          {COMMUNITY_LINKS.map((l) => (
            <a key={l.href} href={l.href}>
              {l.label}
            </a>
          ))}
        </nav>
      </div>
    </div>
  );
}
