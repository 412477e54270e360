import { Link } from 'wouter';
import { Alert } from '../ui/Alert';
import { CheckIcon } from '../ui/Icons';

/** "Deploying": the wait for the node's server_created. The time note is the wizard's own reading (src/client/deploy/README.md). */
export function Deploying({ failed, onAnother, anotherLabel = 'Deploy another node' }: { failed: string | null; onAnother: () => void; anotherLabel?: string }) {
  return (
    <section className="card deploy-status" aria-live="polite">
      {failed ? (
        <Alert kind="error">{failed}</Alert>
      ) : (
        <>
          <span className="spinner deploy-status-spinner" aria-hidden="true" />
          <h2>Setting up your node...</h2>
          <p className="muted">This may take from 30 seconds up to 24 hours. You can follow it in the panel on the right, or leave this page: the node appears in your portfolio when it is ready.</p>
        </>
      )}
      <button type="button" className="btn btn-secondary" onClick={onAnother}>
        {anotherLabel}
      </button>
    </section>
  );
}

/** "Deployed": done. DFI is configured from the customer's wallet, so it offers the configuration tab instead of the note. */
export function Deployed({ serverId, atOnce, onAnother, anotherLabel = 'Deploy another node' }: { serverId: string; atOnce: boolean; onAnother: () => void; anotherLabel?: string }) {
  return (
    <section className="card deploy-status" aria-live="polite">
      <CheckIcon size={48} className="text-green deploy-status-check" />
      <h2>Setup completed!</h2>
      {atOnce ? (
        <Link href={`/dashboard/masternode/${encodeURIComponent(serverId)}?tab=config`} className="btn btn-primary">
          Proceed with configuration
        </Link>
      ) : (
        <p className="muted">Click your node in the right pane to see its details and finish its configuration.</p>
      )}
      <button type="button" className="btn btn-secondary" onClick={onAnother}>
        {anotherLabel}
      </button>
    </section>
  );
}
