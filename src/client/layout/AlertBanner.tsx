import { Link } from 'wouter';
import type { Profile } from '../../shared/schemas/auth';

const KNOWN_BG = new Set(['info', 'success', 'warning', 'danger']);

/** The top banner from the profile's `alert` (bg, text, link). */
export function AlertBanner({ alert }: { alert: NonNullable<Profile['alert']> }) {
  const tone = KNOWN_BG.has(alert.bg) ? alert.bg : 'info';
  const internal = alert.link.startsWith('/') && !alert.link.startsWith('//');
  return (
    <div className={`banner banner-${tone}`} role="status">
      <div className="container banner-inner">
        {!alert.link ? (
          <span>{alert.text}</span>
        ) : internal ? (
          <Link href={alert.link}>{alert.text}</Link>
        ) : (
          <a href={alert.link} target="_blank" rel="noreferrer noopener">
            {alert.text}
          </a>
        )}
      </div>
    </div>
  );
}
