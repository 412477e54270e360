import type { CoinDetail } from '../../shared/schemas/coins';

type CoinLink = CoinDetail['links'][number];

/** Only http(s) links become anchors: catalog text must not become a javascript: URL. */
function safeHref(value: string): string | null {
  return /^https?:\/\//i.test(value) ? value : null;
}

function LinkList({ title, links }: { title: string; links: CoinLink[] }) {
  if (links.length === 0) return null;
  return (
    <div className="coin-links-group">
      <h3>{title}</h3>
      <ul>
        {links.map((l) => {
          const href = safeHref(l.value);
          return (
            <li key={`${l.label}-${l.value}`}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer" className="link-chip" data-icon={l.icon}>
                  {l.label}
                  <span aria-hidden="true"> ↗</span>
                </a>
              ) : (
                <span className="link-chip">
                  {l.label}: {l.value}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The coin's resources (website, explorer, docs) and social accounts. */
export function CoinLinks({ links }: { links: CoinLink[] }) {
  if (links.length === 0) return null;
  return (
    <nav className="card coin-links" aria-label="Links">
      <LinkList title="Resources" links={links.filter((l) => l.type === 'resource')} />
      <LinkList title="Socials" links={links.filter((l) => l.type === 'social')} />
    </nav>
  );
}
