import { useState } from 'react';
import type { NotificationSettingsOutput } from '../../shared/schemas/notifications';
import { trpc } from '../app/trpc';
import { PageHeader } from '../layout/DashboardShell';
import { QueryState } from '../ui/QueryState';
import { SettingRow } from '../ui/SettingRow';
import { useToasts } from '../ui/Toasts';
import { AlertChannels } from './AlertChannels';
import { QuietHours } from './QuietHours';
import './notifications.css';

type Settings = NotificationSettingsOutput['settings'];

export function NotificationSettings() {
  const query = trpc.notifications.get_notification_settings.useQuery();
  return (
    <>
      <PageHeader title="Notifications" />
      <div className="notification-sections">
        <section className="card" aria-labelledby="email-notifications-heading">
          <h2 id="email-notifications-heading">Email notifications</h2>
          <p className="muted">
            Choose the emails we send you. Every notification also appears in the bell menu at the top of the dashboard.
          </p>
          <QueryState query={query} what="Your notification settings">
            {(data) => <SettingsList settings={data.settings} />}
          </QueryState>
        </section>
        <QuietHours />
        <AlertChannels />
      </div>
    </>
  );
}

/**
 * One switch per setting; each change saves the whole list at once (the call takes the
 * enabled names). The switch shows the choice at once; a failed save puts back what the
 * server holds. Switches wait while a save is under way, so saves never overtake each other.
 */
function SettingsList({ settings }: { settings: Settings }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const save = trpc.notifications.save_notification_settings.useMutation();
  const [choice, setChoice] = useState<Record<string, boolean> | null>(null);
  const keys = Object.keys(settings);
  const enabled = (key: string) => choice?.[key] ?? settings[key].enabled;

  function toggle(key: string, on: boolean) {
    const next = Object.fromEntries(keys.map((k) => [k, k === key ? on : enabled(k)]));
    setChoice(next);
    save.mutate(
      { settings: keys.filter((k) => next[k]) },
      {
        onSuccess: () => {
          utils.notifications.get_notification_settings.setData(undefined, (old) =>
            old
              ? {
                  ...old,
                  settings: Object.fromEntries(
                    Object.entries(old.settings).map(([k, s]) => [k, { ...s, enabled: next[k] ?? s.enabled }]),
                  ),
                }
              : old,
          );
          setChoice(null);
          toasts.show('Saved', { kind: 'success' });
        },
        onError: () => {
          setChoice(null);
          toasts.show('Error', { kind: 'error' });
        },
      },
    );
  }

  if (!keys.length) return <p>There are no email notifications to choose from.</p>;
  return (
    <ul className="setting-list" aria-busy={save.isPending}>
      {keys.map((key) => (
        <SettingRow
          key={key}
          name={key}
          label={settings[key].label}
          subtitle={settings[key].subtitle}
          on={enabled(key)}
          busy={save.isPending}
          onChange={(on) => toggle(key, on)}
        />
      ))}
    </ul>
  );
}
