import { useEffect, useId, useState } from 'react';
import { NODE_EVENT_TEXT } from '../../shared/node-maintenance';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { trpc } from '../app/trpc';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToasts } from '../ui/Toasts';
import { utcDateTime } from './nodeTime';
import { nodeName } from './portfolio';

/**
 * Restart (after a confirmation) and the node's events. The server allows one restart per
 * 10 minutes per node; until then the button waits and says when.
 */
export function RestartCard({ node }: { node: MasternodeDetail }) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const waitUntil = useWaitUntil(node.restart_after);
  const placed = node.state === 'live';
  return (
    <section className="card node-restart" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Restart and events
      </h2>
      <div className="node-restart-body">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!placed || waitUntil !== null}
          onClick={() => setConfirming(true)}
        >
          Restart node
        </button>
        <p className="muted small">
          {!placed
            ? 'The node can be restarted once it runs on its server.'
            : waitUntil
              ? `Restarted recently: you can restart it again from ${utcDateTime(waitUntil)}.`
              : 'Stops the daemon and starts it again. At most once every 10 minutes.'}
        </p>
        {node.events.length > 0 && (
          <ul className="node-events" aria-label="Node events">
            {node.events.map((e) => (
              <li key={`${e.kind}-${e.at}`}>
                <time dateTime={e.at}>{utcDateTime(e.at)}</time> {NODE_EVENT_TEXT[e.kind]}
              </li>
            ))}
          </ul>
        )}
      </div>
      {confirming && <ConfirmRestart node={node} onClose={() => setConfirming(false)} />}
    </section>
  );
}

/** `after` while it is in the future; null from then on (re-rendered when it passes). */
function useWaitUntil(after: string | null): string | null {
  const [now, setNow] = useState(Date.now);
  const until = after ? Date.parse(after) : 0;
  useEffect(() => {
    if (until <= Date.now()) return;
    const t = setTimeout(() => setNow(Date.now()), until - Date.now() + 50);
    return () => clearTimeout(t);
  }, [until]);
  return after && until > now ? after : null;
}

function ConfirmRestart({ node, onClose }: { node: MasternodeDetail; onClose: () => void }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const restart = trpc.nodes.restart_node.useMutation();
  return (
    <ConfirmDialog
      title="Restart this node?"
      effect={
        <>
          The daemon of <strong>{nodeName(node)}</strong> stops and starts again; until it answers, its status may show
          an error. A node can be restarted once every 10 minutes.
        </>
      }
      confirmLabel="Restart"
      busyLabel="Restarting…"
      onCancel={onClose}
      onConfirm={async () => {
        const r = await restart.mutateAsync({ masternode: node.mn_id });
        toasts.show(r.message, { kind: 'success' });
        void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id });
        onClose();
      }}
    />
  );
}
