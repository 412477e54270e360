import { RESTART_WAIT_MS } from '../../shared/node-maintenance';
import { counted } from '../../shared/english';
import { useState } from 'react';
import type { z } from 'zod';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import {
  addHostInput,
  destroyNodeInput,
  nodeSearchInput,
  setHostInput,
  type consoleNode,
  type hostRow,
} from '../../shared/schemas/console-fleet';
import { Alert, FormAlerts } from '../ui/Alert';
import { TextAreaField, TextField } from '../ui/Field';
import { useForm, type FieldBinding } from '../ui/useForm';
import { QueryState } from '../ui/QueryState';
import { useConfirm } from '../ui/useConfirm';
import { utc } from './format';
import { CustomerText } from './CustomerText';

/** Hosts, every node, and failed background jobs: the CLI's `hosts`, `fleet` and `jobs` commands. */
export function Fleet() {
  return (
    <div className="console-fleet">
      <Hosts />
      <AddHost />
      <Nodes />
      <FailedJobs />
    </div>
  );
}

type HostRow = z.infer<typeof hostRow>;
type NodeRow = z.infer<typeof consoleNode>;

function useFleetRefetch() {
  const utils = trpc.useUtils();
  return () => utils.console.fleet.invalidate();
}

function Hosts() {
  const hosts = trpc.console.fleet.hosts.useQuery();
  const refetch = useFleetRefetch();
  const drain = trpc.console.fleet.drain_host.useMutation({ onSuccess: refetch });
  const activate = trpc.console.fleet.activate_host.useMutation({ onSuccess: refetch });
  const remove = trpc.console.fleet.remove_host.useMutation({ onSuccess: refetch });
  const [editing, setEditing] = useState<HostRow | null>(null);
  const confirm = useConfirm();
  // Drain and remove say their errors in their dialog; Activate (the undoing one) asks nothing.
  const failed = activate.isError ? activate : null;
  return (
    <section className="console-section" aria-labelledby="hosts-h">
      <h2 id="hosts-h">Hosts</h2>
      <QueryState query={hosts} what="The hosts">
        {(list) => (
          <table className="console-table">
            <thead>
              <tr>
                <th>Host</th>
                <th>Address</th>
                <th>State</th>
                <th>Dedicated used / free</th>
                <th>Cloud used / free</th>
                <th>Disk / memory committed</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((h) => (
                <tr key={h.name} data-host={h.name}>
                  <td>
                    {h.name} <small>{h.engine === 'local' ? 'local' : h.url}</small>
                    {h.last_error && <div className="console-error-text">{h.last_error}</div>}
                  </td>
                  <td>{h.ipv4}</td>
                  <td data-testid="host-state">{h.state}</td>
                  <td>
                    {h.dedicated.used} / {h.dedicated.free} <small>of {h.dedicated.slots}</small>
                  </td>
                  <td>
                    {h.cloud.used} / {h.cloud.free} <small>of {h.cloud.slots}</small>
                  </td>
                  <td data-testid="host-committed">
                    {committed(h.committed.disk_gb, h.committed.disk_total_gb, 'disk')}
                    <br />
                    {committed(h.committed.memory_gb, h.committed.memory_total_gb, 'memory')}
                  </td>
                  <td className="console-actions">
                    {editing?.name === h.name ? (
                      <CapacityForm host={h} onDone={() => setEditing(null)} />
                    ) : (
                      <button type="button" className="btn btn-sm" onClick={() => setEditing(h)}>
                        Capacity
                      </button>
                    )}
                    {h.state === 'active' && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() =>
                          void confirm.ask({
                            title: `Drain ${h.name}?`,
                            effect: drainEffect(h),
                            confirmLabel: `Drain ${h.name}`,
                            busyLabel: 'Draining…',
                            danger: true,
                            action: () => drain.mutateAsync({ name: h.name }),
                          })
                        }
                      >
                        Drain {h.name}
                      </button>
                    )}
                    {h.state === 'draining' && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        disabled={activate.isPending}
                        onClick={() => activate.mutate({ name: h.name })}
                      >
                        Activate {h.name}
                      </button>
                    )}
                    {h.engine !== 'local' && (
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        onClick={() =>
                          void confirm.ask({
                            title: `Remove host ${h.name}?`,
                            effect: removeEffect(h),
                            confirmLabel: `Remove ${h.name}`,
                            busyLabel: 'Removing…',
                            danger: true,
                            action: () => remove.mutateAsync({ name: h.name }),
                          })
                        }
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      {failed && <Alert kind="error">{errorMessage(failed.error)}</Alert>}
      {confirm.dialog}
    </section>
  );
}

const nodesOn = (h: HostRow) => h.dedicated.used + h.cloud.used;

/** What draining does, asked before it is done: it stops new business on the host. */
function drainEffect(h: HostRow): string {
  const running = nodesOn(h);
  return `No new node can be placed on ${h.name}; ${running} ${running === 1 ? 'node keeps' : 'nodes keep'} running. Activate it to take new nodes again.`;
}

/** The server refuses to remove a host that still runs nodes: the question says so first. */
function removeEffect(h: HostRow): string {
  const running = nodesOn(h);
  return running === 0
    ? `${h.name} runs no nodes; it is forgotten and no node can be placed on it again until it is added anew.`
    : `${h.name} still runs ${running} ${running === 1 ? 'node' : 'nodes'}: the removal is refused until it runs none.`;
}

/** A host's slots, edited in its row; a refusal is said in the row (no room under the inputs). */
function CapacityForm({ host: h, onDone }: { host: HostRow; onDone: () => void }) {
  const refetch = useFleetRefetch();
  const set = trpc.console.fleet.set_host.useMutation({ onSuccess: refetch });
  const form = useForm({
    schema: setHostInput,
    initial: { dedicated: String(h.dedicated.slots), cloud: String(h.cloud.slots) },
    toInput: (v) => ({ name: h.name, dedicated: Number(v.dedicated), cloud: Number(v.cloud) }),
    submit: (data) => set.mutateAsync(data),
    successMessage: () => null,
    onSuccess: onDone,
    alertInvalid: true,
  });
  const slots = (name: 'dedicated' | 'cloud', label: string) => (
    <input
      aria-label={`${label} slots of ${h.name}`}
      aria-invalid={form.errors[name] ? true : undefined}
      inputMode="numeric"
      size={5}
      value={form.values[name]}
      onChange={(e) => form.setValues({ ...form.values, [name]: e.target.value })}
    />
  );
  return (
    <form onSubmit={form.onSubmit} noValidate>
      {slots('dedicated', 'Dedicated')}
      {slots('cloud', 'Cloud')}
      <button type="submit" className="btn btn-primary btn-sm" disabled={form.pending}>
        Save
      </button>
      <button type="button" className="btn btn-sm" onClick={onDone}>
        Cancel
      </button>
      {form.error && (
        <div className="console-error-text" role="alert">
          {form.error}
        </div>
      )}
    </form>
  );
}

const emptyHost = { name: '', url: '', ipv4: '', dedicated: '10', cloud: '50', ca: '', cert: '', key: '', ssh_key: '' };

function AddHost() {
  const refetch = useFleetRefetch();
  const add = trpc.console.fleet.add_host.useMutation({ onSuccess: refetch });
  const form = useForm({
    schema: addHostInput,
    initial: emptyHost,
    toInput: (f) => ({
      name: f.name,
      url: f.url,
      ipv4: f.ipv4,
      dedicated: Number(f.dedicated),
      cloud: Number(f.cloud),
      ...(tlsUrl(f.url) ? { tls: { ca: f.ca, cert: f.cert, key: f.key } } : {}),
      ...(sshUrl(f.url) && f.ssh_key ? { ssh_key: f.ssh_key } : {}),
    }),
    submit: async (data) => {
      await add.mutateAsync(data);
      return data.name;
    },
    successMessage: (name) => `Host ${name} added.`,
    onSuccess: (_r, f) => f.setValues(emptyHost),
    alertInvalid: true,
  });
  const tls = tlsUrl(form.values.url);
  const ssh = sshUrl(form.values.url);
  return (
    <section className="console-section" aria-labelledby="add-host-h">
      <h2 id="add-host-h">Add a Docker or Podman host</h2>
      <p>
        The host is reached before it is added. A remote Docker API is root on its host: reach it over TLS with a client
        certificate (<code>https://host:2376</code>) or over SSH (<code>ssh://user@host</code>). Plain{' '}
        <code>tcp://</code> is accepted on a loopback address only.
      </p>
      <form onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('name', 'Host name')} maxLength={32} />
        <TextField
          {...form.field('url', 'Docker API URL')}
          hint="unix:///run/podman/podman.sock, https://host:2376, ssh://user@host or tcp://127.0.0.1:port"
        />
        <TextField {...form.field('ipv4', 'Public IPv4')} />
        <TextField {...form.field('dedicated', 'Dedicated slots')} />
        <TextField {...form.field('cloud', 'Cloud slots')} />
        {tls && (
          <>
            <PemField {...form.field('ca', 'CA certificate (PEM)')} />
            <PemField {...form.field('cert', 'Client certificate (PEM)')} />
            <PemField {...form.field('key', 'Client key (PEM)')} />
          </>
        )}
        {ssh && <PemField {...form.field('ssh_key', 'SSH private key (optional)')} />}
        <button type="submit" className="btn btn-primary" disabled={form.pending}>
          {form.pending ? 'Reaching the host…' : 'Add host'}
        </button>
      </form>
      <FormAlerts form={form} />
    </section>
  );
}

const tlsUrl = (url: string) => /^(https|tcp\+tls):/i.test(url.trim());
const sshUrl = (url: string) => /^ssh:/i.test(url.trim());

function PemField(props: FieldBinding) {
  return <TextAreaField {...props} rows={3} spellCheck={false} />;
}

const PER_PAGE = 20;

function Nodes() {
  const [applied, setApplied] = useState({ q: '', status: '', coin: '' });
  const [page, setPage] = useState(1);
  const nodes = trpc.console.fleet.nodes.useQuery({ ...applied, page, per_page: PER_PAGE });
  const [open, setOpen] = useState<NodeRow | null>(null);
  const search = useForm({
    schema: nodeSearchInput,
    initial: applied,
    // The search is the query above: the form only says what to look for, from the first page.
    submit: async (data) => {
      setPage(1);
      setApplied({ q: data.q ?? '', status: data.status ?? '', coin: data.coin ?? '' });
    },
    successMessage: () => null,
    alertInvalid: true,
    labels: { q: 'Search nodes', status: 'Status', coin: 'Coin' },
  });
  const filter = (name: keyof typeof applied, label: string, size?: number) => (
    <input
      aria-label={label}
      aria-invalid={search.errors[name] ? true : undefined}
      placeholder={name === 'q' ? 'user, node id, coin or IP' : name}
      value={search.values[name]}
      onChange={(e) => search.setValues({ ...search.values, [name]: e.target.value })}
      size={size}
    />
  );
  return (
    <section className="console-section" aria-labelledby="nodes-h">
      <h2 id="nodes-h">Nodes</h2>
      <form className="console-filters" onSubmit={search.onSubmit} noValidate>
        {filter('q', 'Search nodes')}
        {filter('status', 'Status', 10)}
        {filter('coin', 'Coin', 8)}
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      <FormAlerts form={search} />
      <QueryState query={nodes} what="The nodes">
        {(p) => (
          <>
            <table className="console-table">
              <thead>
                <tr>
                  <th>Node</th>
                  <th>Coin</th>
                  <th>Owner</th>
                  <th>Plan</th>
                  <th>Status</th>
                  <th>Host / IP</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {p.nodes.map((n) => (
                  <tr key={n.mn_id}>
                    <td>
                      <button
                        type="button"
                        className="btn-link"
                        onClick={() => setOpen(open?.mn_id === n.mn_id ? null : n)}
                      >
                        <CustomerText text={n.mn_id} />
                      </button>
                      {n.simulated && <small> simulated</small>}
                    </td>
                    <td>{n.coin}</td>
                    <td>
                      <CustomerText text={n.username} />
                    </td>
                    <td>{n.plan}</td>
                    <td>
                      {n.status}
                      {n.failed_reason && (
                        <div className="console-error-text">
                          <CustomerText text={n.failed_reason} />
                        </div>
                      )}
                    </td>
                    <td>
                      {n.host ?? '-'} {n.ip && <small>{n.ip}</small>}
                    </td>
                    <td>{utc(n.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p>
              {counted(p.total, 'node')}. Page {p.page} of {Math.max(1, Math.ceil(p.total / p.per_page))}.{' '}
              <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>{' '}
              <button
                type="button"
                className="btn btn-sm"
                disabled={page * PER_PAGE >= p.total}
                onClick={() => setPage(page + 1)}
              >
                Next
              </button>
            </p>
          </>
        )}
      </QueryState>
      {open && <NodePanel key={open.mn_id} node={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

function NodePanel({ node, onClose }: { node: NodeRow; onClose: () => void }) {
  const mnId = node.mn_id;
  const confirm = useConfirm();
  const [showLogs, setShowLogs] = useState(false);
  const logs = trpc.console.fleet.node_logs.useQuery({ mn_id: mnId, tail: 200 }, { enabled: showLogs, retry: false });
  const refetch = useFleetRefetch();
  const restart = trpc.console.fleet.restart_node.useMutation({ onSuccess: refetch });
  const destroy = trpc.console.fleet.destroy_node.useMutation({ onSuccess: refetch });
  const form = useForm({
    schema: destroyNodeInput,
    initial: { reason: '' },
    toInput: (v) => ({ mn_id: mnId, ...v }),
    // Asked once the input is known good; a Cancel sends nothing and says nothing.
    submit: (data) =>
      confirm.ask({
        title: `Destroy ${mnId}?`,
        effect: (
          <>
            {mnId}, the {node.coin} node of <CustomerText text={node.username} />, is destroyed with its data. This
            cannot be undone.
          </>
        ),
        confirmLabel: 'Destroy',
        busyLabel: 'Destroying…',
        danger: true,
        action: () => destroy.mutateAsync(data),
      }),
    successMessage: (r) => (r ? 'The node is being destroyed.' : null),
    alertInvalid: true,
  });
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="console-card" aria-label={`Node ${mnId}`}>
      <h3>Node {mnId}</h3>
      <button type="button" className="btn btn-sm" onClick={() => (showLogs ? logs.refetch() : setShowLogs(true))}>
        {showLogs ? 'Reload logs' : 'Open logs'}
      </button>{' '}
      <button
        type="button"
        className="btn btn-sm"
        disabled={restart.isPending}
        onClick={() => {
          setDone(null);
          restart.mutate({ mn_id: mnId }, { onSuccess: (r) => setDone(r.message) });
        }}
      >
        {restart.isPending ? 'Restarting…' : 'Restart'}
      </button>{' '}
      {restart.isPending && (
        <span role="status">Waiting for the node to restart and answer (up to {RESTART_WAIT_MS / 1000} s)…</span>
      )}
      <button type="button" className="btn btn-sm" onClick={onClose}>
        Close
      </button>
      <form onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('reason', 'Reason for destroying')} maxLength={500} />
        <button type="submit" className="btn btn-danger btn-sm" disabled={form.pending || !form.values.reason.trim()}>
          Destroy
        </button>
      </form>
      {restart.isError && <Alert kind="error">{errorMessage(restart.error)}</Alert>}
      <FormAlerts form={form} />
      {done && <Alert kind="success">{done}</Alert>}
      {confirm.dialog}
      {showLogs &&
        (logs.isError ? (
          <Alert kind="error">{errorMessage(logs.error)}</Alert>
        ) : (
          <pre className="console-logs">{logs.data?.text ?? 'Loading…'}</pre>
        ))}
    </div>
  );
}

function FailedJobs() {
  const jobs = trpc.console.fleet.failed_jobs.useQuery();
  const refetch = useFleetRefetch();
  const retry = trpc.console.fleet.retry_job.useMutation({ onSuccess: refetch });
  return (
    <section className="console-section" aria-labelledby="failed-h">
      <h2 id="failed-h">Failed queue items</h2>
      <QueryState query={jobs} what="The failed jobs">
        {(list) =>
          list.length === 0 ? (
            <p>No failed jobs.</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Job</th>
                  <th>Failed</th>
                  <th>Attempts</th>
                  <th>Reason</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((j) => (
                  <tr key={j.id}>
                    <td>
                      #{j.id} {j.name}
                    </td>
                    <td>{utc(j.failed_at)}</td>
                    <td>{j.attempts}</td>
                    <td>{j.reason ? <CustomerText text={j.reason} /> : '-'}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-sm"
                        disabled={retry.isPending}
                        onClick={() => retry.mutate({ id: j.id })}
                      >
                        Retry
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      {retry.isError && <Alert kind="error">{errorMessage(retry.error)}</Alert>}
    </section>
  );
}

/** "60 GB of 500 GB disk", or what a host that has not reported says. */
function committed(used: number, total: number | null, what: string) {
  return total === null ? `${used} GB ${what}, host not measured yet` : `${used} GB of ${total} GB ${what}`;
}
