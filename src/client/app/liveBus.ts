import { useEffect, useRef } from 'react';
import type { LiveEvent, LiveEventName, LiveEventPayload } from '../../shared/events';

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();

/**
 * Node ids of the `server_created` events this tab has seen. The simulator creates a
 * node in well under a second, so the event can arrive before the deploy call has
 * answered with its id; the deploy page asks here when the answer comes.
 */
const created = new Set<string>();
const CREATED_KEPT = 200;

/** Called by the one live subscription (live.tsx) for every event it receives. */
export function publishLive(event: LiveEvent) {
  if (event.type === 'server_created') {
    created.add(event.payload.server_id);
    if (created.size > CREATED_KEPT) created.delete(created.values().next().value!);
  }
  for (const listener of listeners) listener(event);
}

export function serverCreatedSeen(serverId: string): boolean {
  return created.has(serverId);
}

/** Runs `handler` for each live event of one name while the component is mounted. */
export function useLiveEvent<N extends LiveEventName>(name: N, handler: (payload: LiveEventPayload<N>) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener: Listener = (event) => {
      if (event.type === name) latest.current(event.payload as LiveEventPayload<N>);
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, [name]);
}
