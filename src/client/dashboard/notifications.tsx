import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { LiveEventPayload } from '../../shared/events';

export type ClientNotification = LiveEventPayload<'new_notification'> & { id: number; at: Date };

type NotificationsApi = {
  items: ClientNotification[];
  add: (n: LiveEventPayload<'new_notification'>) => void;
  clear: () => void;
};

const NotificationsContext = createContext<NotificationsApi | null>(null);

export function useNotifications(): NotificationsApi {
  const api = useContext(NotificationsContext);
  if (!api) throw new Error('useNotifications outside NotificationsProvider');
  return api;
}

/**
 * The navbar's notification list. Stored notifications (get_notifications,
 * clear_notifications) come with a later issue; until then the list holds what
 * `new_notification` live events brought during this visit.
 */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ClientNotification[]>([]);
  const add = useCallback((n: LiveEventPayload<'new_notification'>) => {
    setItems((list) => [{ ...n, id: Date.now() + Math.random(), at: new Date() }, ...list].slice(0, 50));
  }, []);
  const clear = useCallback(() => setItems([]), []);
  const api = useMemo(() => ({ items, add, clear }), [items, add, clear]);
  return <NotificationsContext.Provider value={api}>{children}</NotificationsContext.Provider>;
}
