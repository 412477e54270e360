import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { quietHours, type AlertSettingsOutput, type saveQuietHoursInput } from '../../shared/schemas/notifications';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { check, type FieldErrors } from '../ui/forms';
import { QueryState } from '../ui/QueryState';
import { useToasts } from '../ui/Toasts';

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
  const [hours, setHours] = useState(saved ?? DEFAULT_HOURS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const toggleId = useId();

  function pick(name: 'start_hour' | 'end_hour', value: number) {
    setHours((h) => ({ ...h, [name]: value }));
    setErrors({});
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending) return;
    // The shared schema refuses what the server would (the same hour twice), with its words.
    const checked = on ? check(quietHours, hours) : null;
    setErrors(checked && !checked.ok ? checked.errors : {});
    if (checked && !checked.ok) return;
    const input: z.input<typeof saveQuietHoursInput> = { quiet_hours: checked ? checked.data : null };
    save.mutate(input, {
      onSuccess: () => {
        utils.notifications.get_alert_settings.setData(undefined, (old) =>
          old ? { ...old, quiet_hours: input.quiet_hours } : old,
        );
        toasts.show('Saved', { kind: 'success' });
      },
      onError: () => toasts.show('Error', { kind: 'error' }),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="quiet-hours-form" aria-busy={save.isPending}>
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
      {save.isError && <Alert kind="error">Your quiet hours were not saved: {errorMessage(save.error)}</Alert>}
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
              error={errors.start_hour}
              onChange={(h) => pick('start_hour', h)}
            />
            <HourSelect
              label="Until (UTC)"
              value={hours.end_hour}
              error={errors.end_hour}
              onChange={(h) => pick('end_hour', h)}
            />
          </div>
          <p className="muted small" data-testid="quiet-hours-local">
            In your time zone ({localZone()}) that is {localLabel(hours.start_hour)} to {localLabel(hours.end_hour)}.
          </p>
        </>
      )}
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save'}
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
