import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { z } from 'zod';
import {
  SUPPORT_MESSAGE_MAX,
  supportSendInput,
  supportVisitorSendInput,
  supportVisitorStartInput,
  type SupportThread,
} from '../../shared/schemas/support';
import { errorCode, errorMessage } from '../app/errors';
import { chatTokenStore } from '../app/storage';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { useForm } from '../ui/useForm';

type Props = { signedIn: boolean; open: boolean; onClose: () => void };

/** The chat itself: the hours, the conversation, and the message box. */
export function ChatPanel({ signedIn, open, onClose }: Props) {
  const status = trpc.support.status.useQuery(undefined, { staleTime: 60_000 });
  return (
    <>
      <header className="support-head">
        <strong>Support</strong>
        <button type="button" className="support-close" aria-label="Close support chat" onClick={onClose}>
          ×
        </button>
      </header>
      {status.data && (
        <p className="support-hours" role="status">
          {status.data.open
            ? `We answer live, ${status.data.hours}.`
            : `Support is offline now. Our hours are ${status.data.hours}: leave a message and we answer by email.`}
        </p>
      )}
      {signedIn ? <CustomerChat open={open} /> : <VisitorChat open={open} />}
    </>
  );
}

function CustomerChat({ open }: { open: boolean }) {
  const utils = trpc.useUtils();
  // Kept fresh by the account's live channel (`support_chat` refetches it).
  const thread = trpc.support.thread.useQuery();
  const send = trpc.support.send.useMutation({ onSuccess: (t) => utils.support.thread.setData(undefined, t) });
  const read = trpc.support.read.useMutation({ onSuccess: () => void utils.support.thread.invalidate() });
  useReadWhenOpen(open, thread.data, () => read.mutate());
  const held = thread.data?.held;
  return (
    <>
      {/* An account not yet verified, opening its conversation while many were opened: it waits for the account's link. */}
      {held && (
        <Alert kind="info">
          We received your message. To reach our team, confirm your email: use the link we sent to {held.email}{' '}
          (Settings can resend it).
        </Alert>
      )}
      <Messages thread={thread.data} loading={thread.isLoading} error={thread.error} />
      <Composer schema={supportSendInput} send={(data) => send.mutateAsync(data)} />
    </>
  );
}

function VisitorChat({ open }: { open: boolean }) {
  const [token, setToken] = useState(chatTokenStore.get);
  const keep = (t: string | null) => {
    chatTokenStore.set(t);
    setToken(t);
  };
  const utils = trpc.useUtils();
  const thread = trpc.support.visitor_thread.useQuery(
    { token: token ?? '' },
    { enabled: token !== null, retry: false },
  );
  // A conversation the server no longer knows: start afresh.
  useEffect(() => {
    if (thread.error && errorCode(thread.error) === 'NOT_FOUND') keep(null);
  }, [thread.error]);
  trpc.support.visitor_live.useSubscription(
    { token: token ?? '' },
    {
      enabled: open && token !== null && thread.isSuccess,
      onData: () => void utils.support.visitor_thread.invalidate(),
    },
  );
  const start = trpc.support.visitor_start.useMutation({ onSuccess: (r) => keep(r.token) });
  const send = trpc.support.visitor_send.useMutation({
    onSuccess: (t) => utils.support.visitor_thread.setData({ token: token ?? '' }, t),
  });
  const read = trpc.support.visitor_read.useMutation({
    onSuccess: () => void utils.support.visitor_thread.invalidate(),
  });
  useReadWhenOpen(open, thread.data, () => token && read.mutate({ token }));
  if (token === null) {
    return (
      <>
        <p className="support-intro">
          Leave your email address and your question: we answer here, and by email too, in case you have left this page.
        </p>
        <Composer schema={supportVisitorStartInput} withEmail send={(data) => start.mutateAsync(data)} />
      </>
    );
  }
  const held = thread.data?.held;
  return (
    <>
      {held && <HeldNotice email={held.email} expired={held.expired} onStartAgain={() => keep(null)} />}
      <Messages thread={thread.data} loading={thread.isLoading} error={thread.error} />
      {!held?.expired && (
        <Composer
          schema={supportVisitorSendInput}
          toInput={(v) => ({ token, body: v.body })}
          send={(data) => send.mutateAsync(data)}
        />
      )}
    </>
  );
}

/**
 * A conversation opened while many others were: it waits for the visitor to confirm their
 * email before it reaches the team. Confirming (in any tab) refreshes the thread live.
 */
function HeldNotice({ email, expired, onStartAgain }: { email: string; expired: boolean; onStartAgain: () => void }) {
  if (expired) {
    return (
      <Alert kind="warning">
        The link we sent to {email} has expired, so your message has not reached our team.{' '}
        <button type="button" className="btn-link" onClick={onStartAgain}>
          Start a new conversation
        </button>{' '}
        to get a new link.
      </Alert>
    );
  }
  return (
    <Alert kind="info">
      We received your message. To reach our team, confirm your email: we sent a link to {email}. The link works for 24
      hours.
    </Alert>
  );
}

/** Answers shown in an open panel are read: once per change of the unread count. */
function useReadWhenOpen(open: boolean, thread: SupportThread | undefined, markRead: () => void) {
  const unread = thread?.unread ?? 0;
  const latest = useRef(markRead);
  latest.current = markRead;
  useEffect(() => {
    if (open && unread > 0) latest.current();
  }, [open, unread]);
}

function Messages({ thread, loading, error }: { thread: SupportThread | undefined; loading: boolean; error: unknown }) {
  const end = useRef<HTMLLIElement>(null);
  const count = thread?.messages.length ?? 0;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [count]);
  if (loading) return <p className="support-empty">Loading your conversation…</p>;
  if (error) return <Alert kind="error">{errorMessage(error)}</Alert>;
  if (!count)
    return <p className="support-empty">Ask us anything about your nodes, billing or a coin: a person answers.</p>;
  return (
    <ol className="support-messages" role="log" aria-live="polite" aria-label="Conversation">
      {thread!.messages.map((m) => (
        <li key={m.id} className={`support-message support-from-${m.from}`}>
          <span className="support-who">{m.from === 'support' ? 'Support' : 'You'}</span>
          <p>{m.body}</p>
          <time dateTime={m.at}>{new Date(m.at).toISOString().slice(11, 16)} UTC</time>
        </li>
      ))}
      <li ref={end} aria-hidden="true" />
    </ol>
  );
}

type Message = { email: string; body: string };

/**
 * The message box (and the visitor's email before their first message), checked with
 * the procedure's own schema. Enter sends, Shift+Enter starts a new line; after a send
 * the box is emptied, after a failure the text stays for another try.
 */
function Composer<S extends z.ZodType>({
  schema,
  withEmail = false,
  toInput = (v) => (withEmail ? v : { body: v.body }),
  send,
}: {
  schema: S;
  withEmail?: boolean;
  toInput?: (values: Message) => unknown;
  send: (data: z.output<S>) => Promise<unknown>;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const form = useForm({
    schema,
    initial: { email: '', body: '' },
    toInput,
    submit: send,
    successMessage: () => null,
    onSuccess: (_r, f) => {
      f.setValues({ ...f.values, body: '' });
      box.current?.focus();
    },
    onError: () => box.current?.focus(),
    // The panel is small: a refusal is said in its one alert.
    alertInvalid: true,
  });
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void form.onSubmit();
    }
  };
  const set = (name: keyof Message) => (e: { target: { value: string } }) =>
    form.setValues({ ...form.values, [name]: e.target.value });
  return (
    <form className="support-form" onSubmit={form.onSubmit} noValidate>
      {withEmail && (
        <label className="support-field">
          Your email
          <input
            type="email"
            autoComplete="email"
            value={form.values.email}
            onChange={set('email')}
            aria-invalid={form.errors.email ? true : undefined}
            maxLength={254}
          />
        </label>
      )}
      <FormAlerts form={form} />
      <label className="support-field">
        Message
        <textarea
          ref={box}
          rows={3}
          value={form.values.body}
          maxLength={SUPPORT_MESSAGE_MAX}
          onChange={set('body')}
          onKeyDown={onKey}
          aria-invalid={form.errors.body ? true : undefined}
        />
      </label>
      <button type="submit" className="btn btn-primary" disabled={form.pending || !form.values.body.trim()}>
        {form.pending ? 'Sending…' : 'Send'}
      </button>
    </form>
  );
}
