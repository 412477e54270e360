import { useCallback, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useNotifications } from './notifications';
import { useDismiss } from '../ui/useDismiss';

const EMPTY_TEXT = "You don't have any notifications :(";

/** The navbar bell: a count badge, the list and a clear button. */
export function NotificationsMenu() {
  const { items, clear } = useNotifications();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  return (
    <div className="dropdown" ref={root}>
      <button
        type="button"
        className="topbar-button bell"
        aria-label={items.length ? `Notifications (${items.length})` : 'Notifications'}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path
            d="M12 3a6 6 0 0 0-6 6v3.6L4.3 15.4A1 1 0 0 0 5.2 17h13.6a1 1 0 0 0 .9-1.6L18 12.6V9a6 6 0 0 0-6-6Zm0 18a2.5 2.5 0 0 0 2.4-2h-4.8A2.5 2.5 0 0 0 12 21Z"
            fill="currentColor"
          />
        </svg>
        {items.length > 0 && (
          <span className="badge-count" aria-hidden="true">
            {items.length > 99 ? '99+' : items.length}
          </span>
        )}
      </button>
      {open && (
        <div className="dropdown-menu notifications-menu" role="region" aria-label="Notification list">
          <div className="notifications-head">
            <strong>Notifications</strong>
            <button type="button" className="btn btn-link btn-sm" onClick={clear} disabled={!items.length}>
              Clear
            </button>
          </div>
          {items.length === 0 ? (
            <p className="notifications-empty">{EMPTY_TEXT}</p>
          ) : (
            <ul className="notifications-list">
              {items.map((n) => (
                <li key={n.id}>
                  {n.link?.startsWith('/') ? (
                    <Link href={n.link} onClick={close}>
                      {n.message}
                    </Link>
                  ) : (
                    <span>{n.message}</span>
                  )}
                  <time dateTime={n.at.toISOString()}>{n.at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</time>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
