import { useCallback, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Notification } from '../../shared/schemas/notifications';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { BellIcon } from '../ui/Icons';
import { useToasts } from '../ui/Toasts';
import { useDismiss } from '../ui/useDismiss';
import { NotificationIcon } from './NotificationIcon';
import { notificationTime } from './notificationTime';

const EMPTY_TEXT = "You don't have any notifications :(";

/**
 * The navbar bell: a count badge, the list and a clear button. The list is the
 * server's (get_notifications); `refresh_notifications` refetches it (liveQueries.ts).
 */
export function NotificationsMenu() {
  const list = trpc.notifications.get_notifications.useQuery();
  const items = list.data?.notifications ?? [];
  const clear = useClearNotifications();
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
        <BellIcon size={20} />
        {items.length > 0 && (
          <span className="badge-count" data-testid="notification-count" aria-hidden="true">
            {items.length > 99 ? '99+' : items.length}
          </span>
        )}
      </button>
      {open && (
        <div className="dropdown-menu notifications-menu" role="region" aria-label="Notification list">
          <div className="notifications-head">
            <strong>Notifications</strong>
            <button
              type="button"
              className="btn btn-link btn-sm"
              onClick={() => clear.mutate(undefined)}
              disabled={!items.length || clear.isPending}
            >
              {clear.isPending ? 'Clearing…' : 'Clear'}
            </button>
          </div>
          {list.data === undefined ? (
            <p className="notifications-empty" role={list.isError ? 'alert' : 'status'}>
              {list.isError ? (
                <>
                  Your notifications could not be loaded: {errorMessage(list.error)}{' '}
                  <button type="button" className="btn-link" onClick={() => void list.refetch()}>
                    Try again
                  </button>
                </>
              ) : (
                'Loading…'
              )}
            </p>
          ) : items.length === 0 ? (
            <p className="notifications-empty">{EMPTY_TEXT}</p>
          ) : (
            <ul className="notifications-list">
              {items.map((n, i) => (
                // No id in the spec's shape; the list only changes as a whole (refetch or clear).
                <NotificationRow key={`${i}:${n.hour}:${n.message}`} n={n} onOpen={close} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

function NotificationRow({ n, onOpen }: { n: Notification; onOpen: () => void }) {
  const time = notificationTime(n.hour);
  const body = (
    <>
      <NotificationIcon name={n.icon} />
      <span className="notification-text">
        <span className="notification-message">{n.message}</span>
        <time dateTime={time.iso ?? undefined}>{time.label}</time>
      </span>
    </>
  );
  // Links are the platform's own pages; anything else is shown without one.
  const internal = n.link.startsWith('/') && !n.link.startsWith('//');
  return (
    <li>
      {internal ? (
        <Link href={n.link} className="notification-row" onClick={onOpen}>
          {body}
        </Link>
      ) : (
        <div className="notification-row">{body}</div>
      )}
    </li>
  );
}

/** Clears on the server; the list empties at once, and other tabs refetch on the event the server sends. */
function useClearNotifications() {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  return trpc.notifications.clear_notifications.useMutation({
    onSuccess: () => {
      utils.notifications.get_notifications.setData(undefined, (old) => (old ? { ...old, notifications: [] } : old));
      void utils.notifications.get_notifications.invalidate();
    },
    onError: (err) => toasts.show(`Your notifications could not be cleared: ${errorMessage(err)}`, { kind: 'error' }),
  });
}
