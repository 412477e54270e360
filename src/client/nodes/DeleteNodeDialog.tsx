import { useId, useState } from 'react';
import { Modal } from '../ui/Modal';
import { ContactLink } from '../site/support';

const REASONS = ['I no longer need this node', 'It costs too much', 'The node does not work as expected', 'I am moving it elsewhere', 'Other'];

export const DELETE_PENDING_NOTE = 'Nodes cannot be deleted from the dashboard. To delete this node, contact support: we destroy it and its daily charge stops.';

/**
 * The delete dialog (deployment-and-nodes.md section 4, "Delete"). The delete call is
 * not built yet, so the form is shown as it will be, with its submit disabled.
 */
export function DeleteNodeDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const [reason, setReason] = useState(REASONS[0]);
  const selectId = useId();
  const noteId = useId();
  return (
    <Modal
      title="Delete masternode"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="delete-node-form" className="btn btn-danger" disabled aria-describedby={noteId}>
            Delete node
          </button>
        </>
      }
    >
      <form id="delete-node-form" onSubmit={(e) => e.preventDefault()}>
        <p>
          You are about to delete <strong>{name}</strong>. Deletion cannot be undone: the node is destroyed with its data, and the daily charge stops.
        </p>
        <div className="field">
          <label htmlFor={selectId}>Reason</label>
          <select id={selectId} value={reason} onChange={(e) => setReason(e.target.value)}>
            {REASONS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </div>
        <p id={noteId} className="alert alert-warning">
          {DELETE_PENDING_NOTE} <ContactLink optional subject={`Delete node ${name}`}>Write to support</ContactLink>
        </p>
      </form>
    </Modal>
  );
}
