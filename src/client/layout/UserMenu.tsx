import { useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSession, useUser } from '../session/session';
import { useDismiss } from '../ui/useDismiss';

const ITEMS = [
  { href: '/dashboard/settings', label: 'Settings' },
  { href: '/dashboard/billing', label: 'Billing' },
  { href: '/dashboard/notifications', label: 'Notifications' },
  { href: '/dashboard/api', label: 'API' },
];

export function UserMenu() {
  const user = useUser();
  const { signOut } = useSession();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  async function onSignOut() {
    setLeaving(true);
    await signOut();
    navigate('/login');
  }

  return (
    <div className="dropdown" ref={root}>
      <button
        type="button"
        className="topbar-button user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {user.username.slice(0, 1).toUpperCase()}
        </span>
        <span className="user-name">{user.username}</span>
        <span className="caret" aria-hidden="true" />
      </button>
      {open && (
        <div className="dropdown-menu" role="menu" aria-label="Account">
          {ITEMS.map((item) => (
            <Link key={item.href} href={item.href} role="menuitem" className="dropdown-item" onClick={close}>
              {item.label}
            </Link>
          ))}
          <hr />
          <button type="button" role="menuitem" className="dropdown-item" onClick={onSignOut} disabled={leaving}>
            {leaving ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      )}
    </div>
  );
}
