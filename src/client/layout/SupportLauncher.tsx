import { useLocation } from 'wouter';
import { trpc } from '../app/trpc';
import { useSession } from '../session/session';
import { ChatIcon } from '../ui/Icons';
import { chatLauncher, useChatLauncher } from './chatLauncher';
import './supportLauncher.css';

/**
 * The support chat's button, in the flow of the page's header (site header and dashboard
 * top bar): it scrolls away with the header, so it never lies over a link, a table or a
 * toast. It shows once the chat's code has loaded; the panel itself is support/SupportChat.
 */
export function SupportLauncher() {
  const { open, available } = useChatLauncher();
  const { user } = useSession();
  const [location] = useLocation();
  // A signed-in customer's answers arrive live (the account's channel refetches this): the button counts them.
  const thread = trpc.support.thread.useQuery(undefined, {
    enabled: user !== null && available && !location.startsWith('/console'),
  });
  if (!available) return null;
  const unread = open ? 0 : (thread.data?.unread ?? 0);
  return (
    <button
      type="button"
      id={chatLauncher.buttonId}
      className="support-launcher"
      aria-expanded={open}
      // The panel is made on first open: before that there is nothing to name.
      aria-controls={open ? chatLauncher.panelId : undefined}
      aria-label={
        open
          ? 'Close support chat'
          : unread
            ? `Chat with support: ${unread} new ${unread === 1 ? 'answer' : 'answers'}`
            : 'Chat with support'
      }
      onClick={() => chatLauncher.setOpen(!open)}
    >
      <ChatIcon size={18} />
      <span className="support-launcher-text" aria-hidden="true">
        Support
      </span>
      {unread ? (
        <span className="support-badge" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </button>
  );
}
