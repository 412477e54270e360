import { rolloutStartInput, type RolloutSummary, type UpgradesPage } from '../../shared/schemas/console-upgrades';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { SelectField, TextField } from '../ui/Field';
import { QueryState } from '../ui/QueryState';
import { useForm } from '../ui/useForm';
import { useConfirm } from '../ui/useConfirm';
import { utc } from './format';

/** While a rollout runs the page reads its progress every few seconds. */
const WHILE_RUNNING_MS = 3000;

/** Daemon upgrades: start one for a coin, follow its batches, pause, resume or abort it. The CLI's `fleet upgrade`. */
export function Upgrades() {
  const overview = trpc.console.upgrades.overview.useQuery(undefined, {
    refetchInterval: (q) => (q.state.data?.rollouts.some((r) => r.state === 'running') ? WHILE_RUNNING_MS : false),
  });
  return (
    <QueryState query={overview} what="The upgrades">
      {(data) => (
        <div className="console-upgrades">
          <StartSection data={data} />
          <section className="console-section console-wide" aria-labelledby="rollouts-h">
            <h2 id="rollouts-h">Upgrades</h2>
            {data.rollouts.length ? (
              <table className="console-table">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Coin</th>
                    <th>Version</th>
                    <th>State</th>
                    <th>Progress</th>
                    <th>Started (UTC)</th>
                    <th>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rollouts.map((r) => (
                    <RolloutRow key={r.id} r={r} />
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">No upgrades yet.</p>
            )}
          </section>
        </div>
      )}
    </QueryState>
  );
}

function StartSection({ data }: { data: UpgradesPage }) {
  const utils = trpc.useUtils();
  const withNodes = data.coins.filter((c) => c.live_nodes > 0);
  const dataCoins = data.coins;
  const start = trpc.console.upgrades.start.useMutation();
  const confirm = useConfirm();
  const form = useForm({
    schema: rolloutStartInput,
    initial: { coin_id: withNodes[0]?.id ?? data.coins[0]?.id ?? '', version: '', batch_size: '10' },
    toInput: (v) => ({ ...v, batch_size: Number(v.batch_size) }),
    // Many nodes restart on another version: the operator reads how many and which first.
    submit: (data) => {
      const coin = dataCoins.find((c) => c.id === data.coin_id);
      return confirm.ask({
        title: 'Start this upgrade?',
        effect: coin ? upgradeEffect(coin, data.version, data.batch_size) : `Upgrade to ${data.version}.`,
        confirmLabel: 'Start upgrade',
        busyLabel: 'Starting…',
        danger: true,
        action: () => start.mutateAsync(data),
      });
    },
    successMessage: (r) =>
      r &&
      `Upgrade #${r.id} started: ${r.nodes} node(s), the first alone as the canary${r.skipped ? `; ${r.skipped} skipped (their daemon cannot change version where it runs)` : ''}.`,
    onSuccess: (r, f) => {
      if (!r) return;
      f.setValues({ ...f.values, version: '' });
      void utils.console.upgrades.invalidate();
    },
    alertInvalid: true,
  });
  const current = data.coins.find((c) => c.id === form.values.coin_id);
  return (
    <section className="console-section" aria-labelledby="start-h">
      <h2 id="start-h">Upgrade a coin's daemon</h2>
      <p>
        When a coin's network requires a new daemon version, upgrade its nodes here: one node first, then the rest in
        batches, each checked healthy on the new version before the next. A batch that fails is rolled back and the
        upgrade stops. New nodes get the new version at once.
      </p>
      <form onSubmit={form.onSubmit} noValidate>
        <SelectField
          {...form.field('coin_id', 'Coin')}
          options={data.coins.map((c) => ({
            value: c.id,
            text: `${c.label} (${c.version ?? 'simulated'}, ${c.live_nodes} live)`,
          }))}
        />
        <TextField
          {...form.field('version', 'New version')}
          hint={current ? `Now: ${current.version ?? 'the simulator'}.` : undefined}
          maxLength={40}
        />
        <TextField
          {...form.field('batch_size', 'Batch size')}
          inputMode="numeric"
          hint="Nodes upgraded together after the first."
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={form.pending || !form.values.coin_id || !form.values.version.trim()}
        >
          Start upgrade
        </button>
      </form>
      <FormAlerts form={form} />
      {confirm.dialog}
    </section>
  );
}

type UpgradeCoin = UpgradesPage['coins'][number];

/** How many nodes change, from which version to which, in what order. */
function upgradeEffect(c: UpgradeCoin, version: string, batch: number): string {
  const nodes = c.live_nodes === 1 ? 'the 1 live node' : `the ${c.live_nodes} live nodes`;
  return `Upgrade ${nodes} of ${c.label} from ${c.version ?? 'the simulator'} to ${version}: one first as the canary, then batches of ${batch}, each restarted on the new version; nodes whose daemon cannot change version where they run are skipped.`;
}

const STATE_TEXT: Record<RolloutSummary['state'], string> = {
  running: 'running',
  paused: 'paused',
  done: 'done',
  halted: 'stopped (rolled back)',
  aborted: 'aborted',
};

function RolloutRow({ r }: { r: RolloutSummary }) {
  const utils = trpc.useUtils();
  const change = trpc.console.upgrades.change.useMutation({
    onSuccess: () => void utils.console.upgrades.invalidate(),
  });
  const c = r.counts;
  const total = Object.values(c).reduce((a, b) => a + b, 0) - (c.skipped ?? 0);
  const batch =
    r.current_batch === 0 ? 'the canary' : `batch ${Math.min(r.current_batch, r.batches - 1)} of ${r.batches - 1}`;
  const open = r.state === 'running' || r.state === 'paused';
  const act = (action: 'pause' | 'resume' | 'abort', label: string) => (
    <button
      type="button"
      className="btn btn-sm"
      aria-label={`${label} upgrade #${r.id}`}
      disabled={change.isPending}
      onClick={() => change.mutate({ id: r.id, action })}
    >
      {label}
    </button>
  );
  return (
    <tr>
      <td>{r.id}</td>
      <td>{r.coin}</td>
      <td className="nowrap">
        {r.from_version ?? 'simulated'} → {r.to_version}
      </td>
      <td>
        {STATE_TEXT[r.state]}
        {r.reason ? <div className="muted">{r.reason}</div> : null}
        {change.isError ? <Alert kind="error">{errorMessage(change.error)}</Alert> : null}
      </td>
      <td>
        {c.healthy ?? 0}/{total} upgraded{open ? `, at ${batch}` : ''}
        {c.failed ? `, ${c.failed} failed` : ''}
        {c.rolled_back ? `, ${c.rolled_back} rolled back` : ''}
        {c.skipped ? `, ${c.skipped} skipped` : ''}
      </td>
      <td className="nowrap">{utc(r.started_at)}</td>
      <td className="console-actions">
        {r.state === 'running' && act('pause', 'Pause')}
        {r.state === 'paused' && act('resume', 'Resume')}
        {open && act('abort', 'Abort')}
      </td>
    </tr>
  );
}
