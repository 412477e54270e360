import { useEffect, useState } from 'react';
import type { RemovedValidator } from '../../shared/schemas/nodes';
import { trpc } from '../app/trpc';
import { errorMessage } from '../app/errors';
import { utcDate, utcDateTime } from '../nodes/nodeTime';
import { TableScroll } from '../ui/TableScroll';
import { useToasts } from '../ui/Toasts';

export const REMOVED_NODES_ID = 'removed-nodes';

/**
 * Destroyed validators whose EIP-3076 slashing-protection files are kept (30 days): the
 * owner imports one into the client that runs the key next. Shown only when there is one;
 * the notification of a destroy links here (#removed-nodes).
 */
export function RemovedNodes() {
  const removed = trpc.nodes.removed_validators.useQuery();
  const rows = removed.data?.data ?? [];
  useEffect(() => {
    // Reached from a notification's link: the section appears after the page, so the
    // browser's own jump to the anchor found nothing yet.
    if (rows.length && window.location.hash === `#${REMOVED_NODES_ID}`)
      document.getElementById(REMOVED_NODES_ID)?.scrollIntoView();
  }, [rows.length]);
  if (!rows.length) return null;
  return (
    <section className="card table-card removed-nodes" id={REMOVED_NODES_ID} aria-labelledby="removed-nodes-title">
      <h2 id="removed-nodes-title">Removed nodes</h2>
      <p className="muted">
        These validators were destroyed. Before you run a key anywhere else, import its slashing-protection file
        (EIP-3076 interchange format) into that validator client, so the key never signs anything twice. Each file is
        kept for 30 days.
      </p>
      <TableScroll>
        <table className="table" aria-label="Removed nodes">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Removed</th>
              <th scope="col">Reason</th>
              <th scope="col">Kept until</th>
              <th scope="col">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <RemovedRow key={r.mn_id} row={r} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function RemovedRow({ row }: { row: RemovedValidator }) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const f = await utils.nodes.slashing_protection_file.fetch({ masternode: row.mn_id });
      const url = URL.createObjectURL(new Blob([f.json], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = f.file_name;
      document.body.append(a);
      a.click();
      a.remove();
      URL.revokeObjectURL(url);
    } catch (err) {
      toasts.show(errorMessage(err), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-mn={row.mn_id}>
      <td>
        {row.coin_label} {row.alias ?? row.mn_id}
        {row.alias && <span className="muted small mn-id-sub">{row.mn_id}</span>}
      </td>
      <td>{utcDateTime(new Date(row.removed_at).toISOString())}</td>
      <td>{row.reason ?? '--'}</td>
      <td>{utcDate(new Date(row.kept_until).toISOString())}</td>
      <td>
        <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => void download()}>
          Download slashing-protection file
        </button>
      </td>
    </tr>
  );
}
