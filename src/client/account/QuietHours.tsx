import { useId, useState } from 'react';
import { saveQuietHoursInput, type AlertSettingsOutput } from '../../shared/schemas/notifications';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { QueryState } from '../ui/QueryState';
import { useToasts } from '../ui/Toasts';
import { useForm } from '../ui/useForm';

type Saved = AlertSettingsOutput['quiet_hours'];

/** What a new user is offered when they first turn quiet hours on: the night, in UTC. */
const DEFAULT_HOURS = { start_hour: 22, end_hour: 7 };
const HOURS = Array.from({ length: 24 }, (_, h) => h);

const utcLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** The user's own clock at the start of UTC hour `h` today (zones off by half hours show ":30"). */
function localLabel(h: number): string {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h));
  return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
}

/**
 * Quiet hours on the notification settings page: off, or whole UTC hours from a start to
 * an end (wrapping past midnight). Email and alert channels are held in those hours and
 * summarised after; the in-app list is not, nor are security emails.
 */
export function QuietHours() {
  const query = trpc.notifications.get_alert_settings.useQuery();
  return (
    <section className="card" aria-labelledby="quiet-hours-heading">
      <h2 id="quiet-hours-heading">Quiet hours</h2>
      <p className="muted">
        During your quiet hours every notification still appears here in the dashboard, but emails and alert channel
        messages are held and sent as one summary when the quiet hours end. Security emails (a new login, a password or
        two-factor change, a new API key) are never held.
      </p>
      <QueryState query={query} what="Your quiet hours" loadingLabel="Loading quiet hours…">
        {/* Keyed by what the server holds, so a save (or a refetch) starts the form from it. */}
        {(data) => <QuietHoursForm key={JSON.stringify(data.quiet_hours)} saved={data.quiet_hours} />}
      </QueryState>
    </section>
  );
}

function QuietHoursForm({ saved }: { saved: Saved }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const save = trpc.notifications.save_quiet_hours.useMutation();
  const [on, setOn] = useState(saved !== null);
  const toggleId = useId();
  const start = saved ?? DEFAULT_HOURS;
  const form = useForm({
    // The shared schema refuses what the server would (the same hour twice), with its words.
    schema: saveQuietHoursInput,
    initial: { start_hour: String(start.start_hour), end_hour: String(start.end_hour) },
    toInput: (v) => ({
      quiet_hours: on ? { start_hour: Number(v.start_hour), end_hour: Number(v.end_hour) } : null,
    }),
    submit: async (data) => {
      await save.mutateAsync(data);
      return data;
    },
    // A toast says it.
    successMessage: () => null,
    onSuccess: ({ quiet_hours }) => {
      utils.notifications.get_alert_settings.setData(undefined, (old) => (old ? { ...old, quiet_hours } : old));
      toasts.show('Saved', { kind: 'success' });
    },
    onError: () => toasts.show('Error', { kind: 'error' }),
  });
  const hours = { start_hour: Number(form.values.start_hour), end_hour: Number(form.values.end_hour) };
  const pick = (name: 'start_hour' | 'end_hour', hour: number) =>
    form.setValues({ ...form.values, [name]: String(hour) });

  return (
    <form onSubmit={form.onSubmit} noValidate className="quiet-hours-form" aria-busy={form.pending}>
      <p className="quiet-hours-state" data-testid="quiet-hours-state">
        {saved ? (
          <>
            Quiet hours are <strong>on</strong>, from {utcLabel(saved.start_hour)} to {utcLabel(saved.end_hour)} UTC.
          </>
        ) : (
          <>
            Quiet hours are <strong>off</strong>.
          </>
        )}
      </p>
      {form.error && <Alert kind="error">Your quiet hours were not saved: {form.error}</Alert>}
      <div className="quiet-hours-toggle">
        <input id={toggleId} type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} />
        <label htmlFor={toggleId}>Use quiet hours</label>
      </div>
      {on && (
        <>
          <div className="quiet-hours-fields">
            <HourSelect
              label="From (UTC)"
              value={hours.start_hour}
              error={form.errors.start_hour}
              onChange={(h) => pick('start_hour', h)}
            />
            <HourSelect
              label="Until (UTC)"
              value={hours.end_hour}
              error={form.errors.end_hour}
              onChange={(h) => pick('end_hour', h)}
            />
          </div>
          <p className="muted small" data-testid="quiet-hours-local">
            In your time zone ({localZone()}) that is {localLabel(hours.start_hour)} to {localLabel(hours.end_hour)}.
          </p>
        </>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.pending}>
        {form.pending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

function HourSelect(props: { label: string; value: number; error?: string; onChange: (hour: number) => void }) {
  const id = useId();
  return (
    <div className={`field${props.error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-note`}
      >
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {utcLabel(h)}
          </option>
        ))}
      </select>
      <p id={`${id}-note`} className={props.error ? 'field-error' : 'field-hint'}>
        {props.error ?? `Your time: ${localLabel(props.value)}`}
      </p>
    </div>
  );
}
