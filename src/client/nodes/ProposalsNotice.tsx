import { Alert } from '../ui/Alert';

/** tab=proposals: governance is not built. */
export function ProposalsNotice() {
  return (
    <section className="card">
      <h2>Proposals</h2>
      <Alert kind="info">Governance proposals cannot be viewed or voted on in the dashboard.</Alert>
    </section>
  );
}
