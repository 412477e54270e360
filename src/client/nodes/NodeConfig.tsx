import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { Alert } from '../ui/Alert';
import { DetailRow } from './NodeDetails';
import { planLabel } from './NodeSideCards';

/**
 * The Configuration tab. Each node kind gets its own view (start command, DIP003
 * registration, Monero-type, validators...) with the deploy wizards; until then it
 * says so and shows what is known.
 */
export function NodeConfig({ node }: { node: MasternodeDetail }) {
  return (
    <>
      <Alert kind="info">
        The configuration views for each coin (start commands, registration and keys) arrive with the deploy wizards. Until then, the hosting details below are what is known about this node;
        contact support if you need to start or register it now.
      </Alert>
      <section className="card table-card" aria-labelledby="config-title">
        <h2 id="config-title" className="card-title">
          Known configuration
        </h2>
        <table className="table details-table" aria-labelledby="config-title">
          <tbody>
            <DetailRow label="Package">{planLabel(node.package)}</DetailRow>
            <DetailRow label="Server IP">{node.server_ip ?? MISSING}</DetailRow>
            {node.server_ip6 && <DetailRow label="Server IPv6">{node.server_ip6}</DetailRow>}
          </tbody>
        </table>
      </section>
    </>
  );
}
