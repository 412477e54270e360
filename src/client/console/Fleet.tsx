import { useState } from 'react';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { QueryState } from '../ui/QueryState';
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

function useFleetRefetch() {
  const utils = trpc.useUtils();
  return () => utils.console.fleet.invalidate();
}

function Hosts() {
  const hosts = trpc.console.fleet.hosts.useQuery();
  const refetch = useFleetRefetch();
  const drain = trpc.console.fleet.drain_host.useMutation({ onSuccess: refetch });
  const remove = trpc.console.fleet.remove_host.useMutation({ onSuccess: refetch });
  const set = trpc.console.fleet.set_host.useMutation({ onSuccess: refetch });
  const [editing, setEditing] = useState<{ name: string; dedicated: string; cloud: string } | null>(null);
  const failed = [drain, remove, set].find((m) => m.isError);
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
                  <td className="console-actions">
                    {editing?.name === h.name ? (
                      <form
                        onSubmit={(e) => {
                          e.preventDefault();
                          set.mutate(
                            { name: h.name, dedicated: Number(editing.dedicated), cloud: Number(editing.cloud) },
                            { onSuccess: () => setEditing(null) },
                          );
                        }}
                      >
                        <input
                          aria-label={`Dedicated slots of ${h.name}`}
                          inputMode="numeric"
                          size={5}
                          value={editing.dedicated}
                          onChange={(e) => setEditing({ ...editing, dedicated: e.target.value })}
                        />
                        <input
                          aria-label={`Cloud slots of ${h.name}`}
                          inputMode="numeric"
                          size={5}
                          value={editing.cloud}
                          onChange={(e) => setEditing({ ...editing, cloud: e.target.value })}
                        />
                        <button type="submit" className="btn btn-primary btn-sm" disabled={set.isPending}>
                          Save
                        </button>
                        <button type="button" className="btn btn-sm" onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() =>
                          setEditing({
                            name: h.name,
                            dedicated: String(h.dedicated.slots),
                            cloud: String(h.cloud.slots),
                          })
                        }
                      >
                        Capacity
                      </button>
                    )}
                    {h.state === 'active' && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        disabled={drain.isPending}
                        onClick={() => drain.mutate({ name: h.name })}
                      >
                        Drain {h.name}
                      </button>
                    )}
                    {h.engine !== 'local' && (
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        disabled={remove.isPending}
                        onClick={() =>
                          window.confirm(`Remove host ${h.name}? It must run no nodes.`) &&
                          remove.mutate({ name: h.name })
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
    </section>
  );
}

const emptyHost = { name: '', url: '', ipv4: '', dedicated: '10', cloud: '50', ca: '', cert: '', key: '', sshKey: '' };

function AddHost() {
  const [f, setF] = useState(emptyHost);
  const [done, setDone] = useState<string | null>(null);
  const refetch = useFleetRefetch();
  const add = trpc.console.fleet.add_host.useMutation({ onSuccess: refetch });
  const tls = /^(https|tcp\+tls):/i.test(f.url.trim());
  const ssh = /^ssh:/i.test(f.url.trim());
  const field = (k: keyof typeof emptyHost) => (v: string) => setF({ ...f, [k]: v });
  return (
    <section className="console-section" aria-labelledby="add-host-h">
      <h2 id="add-host-h">Add a Docker or Podman host</h2>
      <p>
        The host is reached before it is added. A remote Docker API is root on its host: reach it over TLS with a client
        certificate (<code>https://host:2376</code>) or over SSH (<code>ssh://user@host</code>). Plain{' '}
        <code>tcp://</code> is accepted on a loopback address only.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          add.mutate(
            {
              name: f.name,
              url: f.url,
              ipv4: f.ipv4,
              dedicated: Number(f.dedicated),
              cloud: Number(f.cloud),
              ...(tls ? { tls: { ca: f.ca, cert: f.cert, key: f.key } } : {}),
              ...(ssh && f.sshKey ? { ssh_key: f.sshKey } : {}),
            },
            {
              onSuccess: () => {
                setDone(`Host ${f.name} added.`);
                setF(emptyHost);
              },
            },
          );
        }}
      >
        <TextField label="Host name" value={f.name} onValueChange={field('name')} maxLength={32} />
        <TextField
          label="Docker API URL"
          value={f.url}
          onValueChange={field('url')}
          hint="unix:///run/podman/podman.sock, https://host:2376, ssh://user@host or tcp://127.0.0.1:port"
        />
        <TextField label="Public IPv4" value={f.ipv4} onValueChange={field('ipv4')} />
        <TextField label="Dedicated slots" value={f.dedicated} onValueChange={field('dedicated')} />
        <TextField label="Cloud slots" value={f.cloud} onValueChange={field('cloud')} />
        {tls && (
          <>
            <PemField label="CA certificate (PEM)" value={f.ca} onChange={field('ca')} />
            <PemField label="Client certificate (PEM)" value={f.cert} onChange={field('cert')} />
            <PemField label="Client key (PEM)" value={f.key} onChange={field('key')} />
          </>
        )}
        {ssh && <PemField label="SSH private key (optional)" value={f.sshKey} onChange={field('sshKey')} />}
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending ? 'Reaching the host…' : 'Add host'}
        </button>
      </form>
      {add.isError && <Alert kind="error">{errorMessage(add.error)}</Alert>}
      {done && <Alert kind="success">{done}</Alert>}
    </section>
  );
}

function PemField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="field">
      <label>
        {label}
        <textarea rows={3} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
      </label>
    </div>
  );
}

const PER_PAGE = 20;

function Nodes() {
  const [search, setSearch] = useState({ q: '', status: '', coin: '' });
  const [applied, setApplied] = useState(search);
  const [page, setPage] = useState(1);
  const nodes = trpc.console.fleet.nodes.useQuery({ ...applied, page, per_page: PER_PAGE });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="console-section" aria-labelledby="nodes-h">
      <h2 id="nodes-h">Nodes</h2>
      <form
        className="console-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setApplied(search);
        }}
      >
        <input
          aria-label="Search nodes"
          placeholder="user, node id, coin or IP"
          value={search.q}
          onChange={(e) => setSearch({ ...search, q: e.target.value })}
        />
        <input
          aria-label="Status"
          placeholder="status"
          value={search.status}
          onChange={(e) => setSearch({ ...search, status: e.target.value })}
          size={10}
        />
        <input
          aria-label="Coin"
          placeholder="coin"
          value={search.coin}
          onChange={(e) => setSearch({ ...search, coin: e.target.value })}
          size={8}
        />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
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
                        onClick={() => setOpen(open === n.mn_id ? null : n.mn_id)}
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
              {p.total} nodes. Page {p.page} of {Math.max(1, Math.ceil(p.total / p.per_page))}.{' '}
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
      {open && <NodePanel mnId={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

function NodePanel({ mnId, onClose }: { mnId: string; onClose: () => void }) {
  const [showLogs, setShowLogs] = useState(false);
  const logs = trpc.console.fleet.node_logs.useQuery({ mn_id: mnId, tail: 200 }, { enabled: showLogs, retry: false });
  const refetch = useFleetRefetch();
  const restart = trpc.console.fleet.restart_node.useMutation({ onSuccess: refetch });
  const destroy = trpc.console.fleet.destroy_node.useMutation({ onSuccess: refetch });
  const [reason, setReason] = useState('');
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
        onClick={() => restart.mutate({ mn_id: mnId }, { onSuccess: () => setDone('The node will be restarted.') })}
      >
        Restart
      </button>{' '}
      <button type="button" className="btn btn-sm" onClick={onClose}>
        Close
      </button>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (window.confirm(`Destroy ${mnId} and its data? This cannot be undone.`))
            destroy.mutate({ mn_id: mnId, reason }, { onSuccess: () => setDone('The node is being destroyed.') });
        }}
      >
        <TextField label="Reason for destroying" value={reason} onValueChange={setReason} maxLength={500} />
        <button type="submit" className="btn btn-danger btn-sm" disabled={destroy.isPending || !reason.trim()}>
          Destroy
        </button>
      </form>
      {restart.isError && <Alert kind="error">{errorMessage(restart.error)}</Alert>}
      {destroy.isError && <Alert kind="error">{errorMessage(destroy.error)}</Alert>}
      {done && <Alert kind="success">{done}</Alert>}
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
