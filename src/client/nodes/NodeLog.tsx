import { useId } from 'react';
import { NODE_LOG_LINES } from '../../shared/node-maintenance';
import { trpc } from '../app/trpc';
import { QueryState } from '../ui/QueryState';

/**
 * The daemon's last lines, read through its engine when the panel shows and again on
 * "Refresh"; the server masks every secret before it leaves.
 */
export function NodeLogCard({ mn }: { mn: string }) {
  const titleId = useId();
  const query = trpc.nodes.get_node_log.useQuery({ masternode: mn }, { refetchOnWindowFocus: false });
  return (
    <section className="card node-log" aria-labelledby={titleId}>
      <div className="node-log-head">
        <h2 id={titleId} className="card-title">
          Daemon log (last {NODE_LOG_LINES} lines)
        </h2>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => void query.refetch()}
          disabled={query.isFetching}
        >
          {query.isFetching ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <p className="muted small">Passwords, keys and other secrets are shown as [hidden].</p>
      <QueryState query={query} what="The log" loadingLabel="Loading log…">
        {(data) =>
          data.lines.length === 0 ? (
            <p className="muted">The daemon has written nothing yet.</p>
          ) : (
            <pre className="node-log-text" tabIndex={0} aria-label="Daemon log">
              {data.lines.join('\n')}
            </pre>
          )
        }
      </QueryState>
    </section>
  );
}
