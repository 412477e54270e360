import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import {
  SUPPORT_INBOX_PAGE,
  SUPPORT_MESSAGE_MAX,
  supportReplyInput,
  type SupportConversation,
} from '../../shared/schemas/support';
import { useLiveEvent } from '../app/liveBus';
import { trpc } from '../app/trpc';
import { FormAlerts } from '../ui/Alert';
import { TextAreaField } from '../ui/Field';
import { useForm } from '../ui/useForm';
import { QueryState } from '../ui/QueryState';
import { utc } from './format';
import { escapeBidi } from '../../shared/bidi';
import { CustomerText } from './CustomerText';

/** The support inbox: conversations (unread first) and the one chosen (`?c=<id>`), with the answer box. */
export function Support() {
  const utils = trpc.useUtils();
  const [limit, setLimit] = useState(SUPPORT_INBOX_PAGE);
  const inbox = trpc.console.support.inbox.useQuery({ limit }, { placeholderData: (previous) => previous });
  // Every message either way is a `support_chat` event to each operator.
  useLiveEvent('support_chat', () => void utils.console.support.invalidate());
  const search = useSearch();
  const [, navigate] = useLocation();
  const chosen = Number(new URLSearchParams(search).get('c')) || null;
  return (
    <QueryState query={inbox} what="The support inbox">
      {(data) => (
        <div className="console-support">
          <section className="console-section" aria-labelledby="inbox-h">
            <h2 id="inbox-h">Conversations{data.unread_total ? ` (${data.unread_total} unread)` : ''}</h2>
            {data.conversations.length ? (
              <ul className="support-inbox">
                {data.conversations.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      className="support-inbox-item"
                      aria-current={c.id === chosen ? 'true' : undefined}
                      onClick={() => navigate(`/support?c=${c.id}`)}
                    >
                      <span className="support-inbox-who">
                        <CustomerText text={c.who} />
                        {c.visitor ? ' (visitor)' : ''}
                        {c.unread ? <span className="support-unread"> · {c.unread} unread</span> : null}
                      </span>
                      <span className="support-inbox-last">
                        <CustomerText text={c.last_message} />
                      </span>
                      <span className="muted">{utc(c.last_at)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">
                No conversations yet. Customers and visitors write from the Support button in the header of every page.
              </p>
            )}
            {data.more ? (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={inbox.isFetching}
                onClick={() => setLimit((n) => n + SUPPORT_INBOX_PAGE)}
              >
                Show older conversations
              </button>
            ) : null}
          </section>
          {chosen ? (
            <ConversationPane id={chosen} />
          ) : data.conversations.length ? (
            <p className="muted">Choose a conversation to read and answer it.</p>
          ) : null}
        </div>
      )}
    </QueryState>
  );
}

function ConversationPane({ id }: { id: number }) {
  const utils = trpc.useUtils();
  const conversation = trpc.console.support.conversation.useQuery({ id });
  const read = trpc.console.support.read.useMutation({
    onSuccess: () => void utils.console.support.inbox.invalidate(),
  });
  const unread = utils.console.support.inbox.getData()?.conversations.find((c) => c.id === id)?.unread ?? 0;
  // `mutate` keeps its identity across renders (the mutation object does not).
  const markRead = read.mutate;
  const loaded = conversation.isSuccess;
  useEffect(() => {
    if (unread > 0 && loaded) markRead({ id });
  }, [id, unread, loaded, markRead]);
  return (
    <section className="console-section console-wide" aria-labelledby="conversation-h">
      <QueryState query={conversation} what="The conversation">
        {(c) => (
          <>
            <h2 id="conversation-h">
              {c.user_id ? (
                <Link href={`/customers/${c.user_id}`}>
                  <CustomerText text={c.who} />
                </Link>
              ) : (
                <CustomerText text={c.who} />
              )}
              {c.email && c.email !== c.who ? (
                <span className="muted">
                  {' '}
                  · <CustomerText text={c.email} />
                </span>
              ) : null}
            </h2>
            <ConversationLog c={c} />
            <ReplyForm id={c.id} visitor={c.user_id === null} />
          </>
        )}
      </QueryState>
    </section>
  );
}

/** A conversation's messages, as the console's customer page shows them too. */
export function ConversationLog({ c }: { c: SupportConversation }) {
  return (
    <ol className="support-thread" role="log" aria-label={`Conversation with ${escapeBidi(c.who)}`}>
      {c.messages.map((m) => (
        <li key={m.id} className={`support-line support-line-${m.from}`}>
          <span className="muted">
            {utc(m.at)} ·{' '}
            {m.from === 'support' ? (
              `Support${m.operator ? ` (${escapeBidi(m.operator)})` : ''}`
            ) : (
              <CustomerText text={c.who} />
            )}
            {m.outside_hours ? ' · outside hours: answer goes by email' : ''}
          </span>
          <p>
            <CustomerText text={m.body} />
          </p>
        </li>
      ))}
    </ol>
  );
}

function ReplyForm({ id, visitor }: { id: number; visitor: boolean }) {
  const utils = trpc.useUtils();
  const box = useRef<HTMLTextAreaElement>(null);
  const reply = trpc.console.support.reply.useMutation();
  const form = useForm({
    schema: supportReplyInput,
    initial: { body: '' },
    toInput: ({ body }) => ({ id, body }),
    submit: (data) => reply.mutateAsync(data),
    successMessage: (r) =>
      r.emailed
        ? visitor
          ? 'Sent, and mailed to the visitor.'
          : 'Sent; the customer is notified by mail (their message came outside support hours).'
        : 'Sent.',
    onSuccess: (_r, f) => {
      f.setValues({ body: '' });
      void utils.console.support.invalidate();
      box.current?.focus();
    },
    onError: () => box.current?.focus(),
    alertInvalid: true,
  });
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <FormAlerts form={form} />
      <TextAreaField {...form.field('body', 'Answer')} ref={box} rows={4} maxLength={SUPPORT_MESSAGE_MAX} />
      <button type="submit" className="btn btn-primary" disabled={form.pending || !form.values.body.trim()}>
        {form.pending ? 'Sending…' : 'Send answer'}
      </button>
    </form>
  );
}
