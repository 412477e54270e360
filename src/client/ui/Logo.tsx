import { Link } from 'wouter';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link href={to} className="logo" aria-label="Nodekeep home">
      <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
        <rect x="2" y="2" width="20" height="20" rx="6" fill="currentColor" opacity="0.18" />
        <circle cx="8" cy="8" r="2.4" fill="currentColor" />
        <circle cx="16" cy="8" r="2.4" fill="currentColor" />
        <circle cx="12" cy="16" r="2.4" fill="currentColor" />
        <path d="M8 8 L16 8 L12 16 Z" fill="none" stroke="currentColor" strokeWidth="1.4" />
      </svg>
      <span>Nodekeep</span>
    </Link>
  );
}
