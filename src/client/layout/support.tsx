import type { ReactNode } from 'react';
import { useSession } from '../session/session';

/**
 * Where customers get help: the operator's SUPPORT_EMAIL and COMMUNITY_LINKS, from
 * `system.status` (or its last answer, kept for the error app). Without an address the
 * words stay, without a link (or go, when `optional`).
 */
export function ContactLink({
  subject,
  optional = false,
  children,
}: {
  subject?: string;
  optional?: boolean;
  children: ReactNode;
}) {
  const { email } = useSession().support;
  if (!email) return optional ? null : <>{children}</>;
  const href = `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;
  return (
    <a href={href} data-testid="contact-link">
      {children}
    </a>
  );
}

/** The support address and the community links, as a row of links; nothing when none is set. */
export function CommunityLinks({
  className = 'community-links',
  withEmail = true,
}: {
  className?: string;
  withEmail?: boolean;
}) {
  const { email, community } = useSession().support;
  if (community.length === 0 && !(withEmail && email)) return null;
  return (
    <nav className={className} aria-label="Community and support">
      {community.map((l) => (
        <a key={l.url} href={l.url} target="_blank" rel="noopener noreferrer">
          {l.label}
        </a>
      ))}
      {withEmail && email && <a href={`mailto:${email}`}>{email}</a>}
    </nav>
  );
}
