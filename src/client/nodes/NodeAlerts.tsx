import { useId, useState } from 'react';
import { trpc } from '../app/trpc';
import { QueryState } from '../ui/QueryState';
import { SettingRow } from '../ui/SettingRow';
import { useToasts } from '../ui/Toasts';

/**
 * The owner's switch for this node's notifications. Whether the node is muted comes from
 * the user's alert settings (the list of muted nodes), the same list quiet hours live in.
 */
export function NodeAlertsCard({ mn }: { mn: string }) {
  const titleId = useId();
  const query = trpc.notifications.get_alert_settings.useQuery();
  return (
    <section className="card table-card node-alerts" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Alerts
      </h2>
      <div className="node-alerts-body">
        <QueryState query={query} what="This node's alert setting" loadingLabel="Loading alert setting…">
          {(data) => <AlertsSwitch mn={mn} muted={data.muted_nodes.includes(mn)} />}
        </QueryState>
      </div>
    </section>
  );
}

/**
 * The switch shows the choice at once and waits (ignores clicks) while the save runs; a
 * failed save puts back what the server holds, a successful one updates the cached list.
 */
function AlertsSwitch({ mn, muted }: { mn: string; muted: boolean }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const save = trpc.nodes.set_alerts_muted.useMutation();
  const [choice, setChoice] = useState<boolean | null>(null);
  const on = choice ?? !muted;

  function change(next: boolean) {
    setChoice(next);
    save.mutate(
      { mn, muted: !next },
      {
        onSuccess: () => {
          utils.notifications.get_alert_settings.setData(undefined, (old) => {
            if (!old) return old;
            const others = old.muted_nodes.filter((id) => id !== mn);
            return { ...old, muted_nodes: next ? others : [...others, mn] };
          });
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

  return (
    <ul className="setting-list" aria-busy={save.isPending}>
      <SettingRow
        name="node_alerts"
        label="Alerts for this node"
        subtitle={
          on
            ? 'On. Turn off to mute this node: it then sends no down/up, network status, action or reward notifications.'
            : 'Muted: this node sends no down/up, network status, action or reward notifications.'
        }
        on={on}
        busy={save.isPending}
        onChange={change}
      />
    </ul>
  );
}
