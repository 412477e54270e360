import { useState } from 'react';
import {
  addAlertChannelInput,
  alertChannelTypes,
  type AlertChannel,
  type AlertChannelType,
} from '../../shared/schemas/alert-channels';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { CopyBlock } from '../ui/CopyButton';
import { SelectField, TextField } from '../ui/Field';
import { QueryState } from '../ui/QueryState';
import { useToasts } from '../ui/Toasts';
import { useForm } from '../ui/useForm';
import '../ui/setting.css';

const typeNames: Record<AlertChannelType, string> = { webhook: 'Webhook', telegram: 'Telegram', discord: 'Discord' };

/** Alerts beyond email: a signed webhook, a Telegram chat, a Discord webhook; each gets every notification. */
export function AlertChannels() {
  const query = trpc.alertChannels.get_alert_channels.useQuery();
  return (
    <section className="card" aria-labelledby="alert-channels-heading">
      <h2 id="alert-channels-heading">Alert channels</h2>
      <p className="muted">Every notification is also sent to each channel you turn on.</p>
      <QueryState query={query} what="Your alert channels">
        {(data) => <ChannelList channels={data.channels} />}
      </QueryState>
      <AddChannelForm />
    </section>
  );
}

function ChannelList({ channels }: { channels: AlertChannel[] }) {
  if (!channels.length) return <p>You have no alert channels yet.</p>;
  return (
    <ul className="setting-list" aria-label="Alert channels">
      {channels.map((c) => (
        <ChannelRow key={c.id} channel={c} />
      ))}
    </ul>
  );
}

function ChannelRow({ channel: c }: { channel: AlertChannel }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const refresh = () => utils.alertChannels.get_alert_channels.invalidate();
  const save = trpc.alertChannels.save_alert_channel.useMutation({
    onSuccess: refresh,
    onError: (e) => toasts.show(errorMessage(e), { kind: 'error' }),
  });
  const remove = trpc.alertChannels.delete_alert_channel.useMutation({
    onSuccess: () => {
      toasts.show('Alert channel deleted', { kind: 'success' });
      void refresh();
    },
    onError: (e) => toasts.show(errorMessage(e), { kind: 'error' }),
  });
  const test = trpc.alertChannels.test_alert_channel.useMutation({
    onSuccess: (r) => toasts.show(r.message, { kind: r.success ? 'success' : 'error' }),
    onError: (e) => toasts.show(errorMessage(e), { kind: 'error' }),
  });
  const label = `${typeNames[c.type]} ${c.target}`;
  return (
    <li className="setting-row alert-channel" data-channel-id={c.id}>
      <div className="setting-text">
        <span className="setting-label">{typeNames[c.type]}</span>
        <span className="setting-subtitle alert-channel-target">{c.target}</span>
        {c.disabled_reason && (
          <span className="setting-subtitle">
            Turned off: {c.disabled_reason}
            {c.last_error ? ` (${c.last_error})` : ''}
          </span>
        )}
      </div>
      <div className="alert-channel-actions">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={test.isPending}
          onClick={() => test.mutate({ id: c.id })}
          aria-label={`Send test to ${label}`}
        >
          {test.isPending ? 'Sending…' : 'Send test'}
        </button>
        <button
          type="button"
          className="btn btn-danger btn-sm"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ id: c.id })}
          aria-label={`Delete ${label}`}
        >
          Delete
        </button>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={c.enabled}
          aria-label={`${label} on`}
          aria-disabled={save.isPending}
          onChange={(e) => {
            if (!save.isPending) save.mutate({ id: c.id, enabled: e.target.checked });
          }}
        />
      </div>
    </li>
  );
}

const noChannel = { type: 'webhook', url: '', bot_token: '', chat_id: '' };
const typeOptions = alertChannelTypes.map((t) => ({ value: t, text: typeNames[t] }));

function AddChannelForm() {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const add = trpc.alertChannels.add_alert_channel.useMutation();
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm({
    schema: addAlertChannelInput,
    initial: noChannel,
    toInput: ({ type, url, bot_token, chat_id }) =>
      type === 'telegram' ? { type, bot_token, chat_id } : { type, url },
    submit: (data) => add.mutateAsync(data),
    // The toast says it; the secret stays on the page.
    successMessage: () => null,
    onSuccess: (r, f) => {
      setSecret(r.secret ?? null);
      f.setValues({ ...noChannel, type: f.values.type });
      toasts.show('Alert channel added', { kind: 'success' });
      void utils.alertChannels.get_alert_channels.invalidate();
    },
  });
  const type = form.values.type;
  return (
    <form
      onSubmit={form.onSubmit}
      noValidate
      className="form-narrow alert-channel-form"
      aria-label="Add an alert channel"
    >
      <h3>Add a channel</h3>
      <FormAlerts form={form} />
      {secret && (
        <Alert kind="warning">
          Your webhook's signing secret is shown only now. Each delivery carries the header{' '}
          <code>Nodekeep-Signature: t=…,v1=…</code>: <code>t</code> is the delivery's Unix time, and <code>v1</code> the
          hex HMAC-SHA256, keyed with this secret, of <code>t</code>, a dot and the request body.
          <CopyBlock label="Signing secret" text={secret} />
        </Alert>
      )}
      <SelectField {...form.field('type', 'Type')} options={typeOptions} />
      {type === 'telegram' ? (
        <>
          <TextField
            {...form.field('bot_token', 'Bot token')}
            hint="From @BotFather, such as 123456789:AAE…"
            autoComplete="off"
          />
          <TextField {...form.field('chat_id', 'Chat id')} hint="A number such as 123456789, or @channelname." />
        </>
      ) : (
        <TextField
          {...form.field('url', type === 'webhook' ? 'Webhook URL' : 'Discord webhook URL')}
          type="url"
          hint={
            type === 'webhook'
              ? 'We POST a signed JSON body to it.'
              : 'Channel settings, Integrations, Webhooks, Copy webhook URL.'
          }
        />
      )}
      <button type="submit" className="btn btn-primary" disabled={form.pending}>
        {form.pending ? 'Adding…' : 'Add channel'}
      </button>
    </form>
  );
}
