import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { lazyPart } from '../app/lazyPage';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../session/session';
import { chatLauncher, useChatLauncher } from '../layout/chatLauncher';
import './support.css';

const ChatPanel = lazyPart(() => import('./ChatPanel'), 'ChatPanel');

/**
 * The support chat's panel, on every page but the console's; its button is the header's
 * SupportLauncher, which shows only while this is mounted (its code loaded). The panel's
 * content (its queries, its live channel) loads on first open. Mounted per login state
 * (App.tsx keys it by token), so logging out closes it.
 */
export function SupportChat() {
  const [location] = useLocation();
  const search = useSearch();
  const { user } = useSession();
  const { open } = useChatLauncher();
  const inConsole = location.startsWith('/console');
  const [opened, setOpened] = useState(open);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    chatLauncher.setAvailable(!inConsole);
    return () => chatLauncher.setAvailable(false);
  }, [inConsole]);
  // A notification's link ("?chat=open") opens it.
  useEffect(() => {
    if (new URLSearchParams(search).get('chat') === 'open') chatLauncher.setOpen(true);
  }, [search]);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);
  // Keyboard and screen-reader users land in the dialog they opened (once it is rendered).
  useEffect(() => {
    if (open && opened) panel.current?.focus();
  }, [open, opened]);
  if (inConsole) return null;
  const close = () => {
    chatLauncher.setOpen(false);
    document.getElementById(chatLauncher.buttonId)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };
  if (!opened) return null;
  return (
    <div className="support-chat">
      <div
        ref={panel}
        id={chatLauncher.panelId}
        className="support-panel"
        role="dialog"
        aria-label="Support chat"
        tabIndex={-1}
        hidden={!open}
        onKeyDown={onKey}
      >
        <Suspense fallback={<p className="support-loading">Loading the chat…</p>}>
          <ChatPanel signedIn={user !== null} open={open} onClose={close} />
        </Suspense>
      </div>
    </div>
  );
}
