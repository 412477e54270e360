import { Suspense, useEffect, useState } from 'react';
import { lazyPart } from '../app/lazyPage';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../session/session';
import { trpc } from '../app/trpc';
import './support.css';

const ChatPanel = lazyPart(() => import('./ChatPanel'), 'ChatPanel');

/**
 * The support chat bubble, on every page but the console's. The panel (its queries,
 * its live channel) loads on first open. Mounted per login state (App.tsx keys it by
 * token), so logging out closes it.
 */
export function SupportChat() {
  const [location] = useLocation();
  const search = useSearch();
  const { user } = useSession();
  // A notification's link ("?chat=open") opens it.
  const [open, setOpen] = useState(() => new URLSearchParams(search).get('chat') === 'open');
  const [opened, setOpened] = useState(open);
  useEffect(() => {
    if (new URLSearchParams(search).get('chat') === 'open') setOpen(true);
  }, [search]);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);
  // A signed-in customer's answers arrive live (the account's channel refetches this): the bubble counts them.
  const thread = trpc.support.thread.useQuery(undefined, {
    enabled: user !== null && !location.startsWith('/console'),
  });
  const unread = open ? 0 : (thread.data?.unread ?? 0);
  if (location.startsWith('/console')) return null;
  return (
    <div className="support-chat">
      {opened && (
        <div className="support-panel" role="dialog" aria-label="Support chat" hidden={!open}>
          <Suspense fallback={<p className="support-loading">Loading the chat…</p>}>
            <ChatPanel signedIn={user !== null} open={open} onClose={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
      <button
        type="button"
        className="support-bubble"
        aria-expanded={open}
        aria-label={
          open
            ? 'Close support chat'
            : unread
              ? `Chat with support: ${unread} new ${unread === 1 ? 'answer' : 'answers'}`
              : 'Chat with support'
        }
        onClick={() => setOpen(!open)}
      >
        {open ? '×' : 'Chat'}
        {unread ? <span className="support-badge">{unread}</span> : null}
      </button>
    </div>
  );
}
