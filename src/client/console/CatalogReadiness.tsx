import type { z } from 'zod';
import { checkCoinInput, type coinReadinessRow } from '../../shared/schemas/console-readiness';
import { trpc } from '../app/trpc';
import { QueryState } from '../ui/QueryState';
import { useForm } from '../ui/useForm';

type Row = z.infer<typeof coinReadinessRow>;

/** "Offered" or "Coming soon" with what is missing: the Coins table's Readiness cell. */
export function ReadinessCell({ row }: { row: Row | undefined }) {
  if (!row) return <td>-</td>;
  return (
    <td data-readiness={row.offered ? 'offered' : 'coming-soon'}>
      {row.offered ? (
        <span className="flag flag-success">Offered</span>
      ) : (
        <span className="flag flag-info">Coming soon</span>
      )}
      {row.missing && <div className="muted small">{row.missing}</div>}
    </td>
  );
}

/** The readiness of every listed coin, read once for the Coins table and the section below. */
export function useReadiness() {
  return trpc.console.readiness.coins.useQuery(undefined, {
    // Followed while a check is under way; still otherwise.
    refetchInterval: (q) =>
      q.state.data?.some((r) => r.last_check && ['queued', 'running'].includes(r.last_check.state)) ? 1_000 : false,
  });
}

/**
 * In production a coin is offered only when its daemon profile is verified from its source
 * and `coins check` passed on a host that can take it. Each coin's newest check, step by
 * step, and a button to run one (a background job; the CLI's `coins check`).
 */
export function ReadinessSection() {
  const readiness = useReadiness();
  const hosts = trpc.console.fleet.hosts.useQuery();
  const active = (hosts.data ?? []).filter((h) => h.state === 'active').map((h) => h.name);
  return (
    <section className="console-section" aria-labelledby="readiness-h">
      <h2 id="readiness-h">Readiness</h2>
      <p>
        Customers see &quot;Coming soon&quot; for a coin until its daemon is verified and checked on a host: the image
        is there, it runs the pinned version, it answers every call the platform makes, and its P2P port is free.
      </p>
      <QueryState query={readiness} what="Readiness">
        {(list) => (
          <table className="console-table">
            <thead>
              <tr>
                <th>Coin</th>
                <th>Profile</th>
                <th>Readiness</th>
                <th>Newest check</th>
                <th>Check</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <ReadinessRow key={r.coin} row={r} hosts={active} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}

function ReadinessRow({ row: r, hosts }: { row: Row; hosts: string[] }) {
  const utils = trpc.useUtils();
  const check = trpc.console.readiness.check.useMutation({
    onSuccess: () => utils.console.readiness.coins.invalidate(),
  });
  const form = useForm({
    schema: checkCoinInput,
    initial: { host: '' },
    toInput: (v) => ({ coin: r.coin, ...(v.host ? { host: v.host } : {}) }),
    submit: (data) => check.mutateAsync(data),
    successMessage: () => null,
    // The row has no room under its select: the refusal is said in the row's error line.
    alertInvalid: true,
  });
  const last = r.last_check;
  const busy = last !== null && (last.state === 'queued' || last.state === 'running');
  return (
    <tr data-coin={r.coin}>
      <td>{r.coin}</td>
      <td>
        <code>{r.profile}</code>
      </td>
      <ReadinessCell row={r} />
      <td>
        {last ? (
          <>
            <strong>{last.state}</strong>
            {last.host && <> on {last.host}</>} <small>{last.checked_at ?? last.requested_at}</small>
            {last.reason && <div className="muted small">{last.reason}</div>}
            {last.steps.length > 0 && (
              <details>
                <summary>Steps</summary>
                <ul>
                  {last.steps.map((s) => (
                    <li key={s.step}>
                      {s.ok ? 'ok' : 'failed'} {s.step}: {s.detail}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        ) : (
          'never checked'
        )}
      </td>
      <td>
        <form onSubmit={form.onSubmit} noValidate>
          <select
            aria-label={`Host to check ${r.coin} on`}
            value={form.values.host}
            onChange={(e) => form.setValues({ host: e.target.value })}
          >
            <option value="">where a node would go</option>
            {hosts.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>{' '}
          <button type="submit" className="btn btn-sm" disabled={busy || form.pending} aria-label={`Check ${r.coin}`}>
            {busy ? 'Checking…' : 'Check'}
          </button>
          {form.error && (
            <div className="console-error-text" role="alert">
              {form.error}
            </div>
          )}
        </form>
      </td>
    </tr>
  );
}
