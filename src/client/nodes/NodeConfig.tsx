import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { MISSING } from '../ui/display';
import { Alert } from '../ui/Alert';
import { DetailRow } from './NodeDetails';
import { planLabel } from './NodeSideCards';
import { ContactLink } from '../site/support';

/**
 * The Configuration tab. Each node kind gets its own view (start command, DIP003
 * registration, Monero-type, validators...) once the deploy flow exists; meanwhile it
 * says plainly what the customer can do and shows what is known.
 */
export function NodeConfig({ node }: { node: MasternodeDetail }) {
  return (
    <>
      <Alert kind="info">
        The dashboard does not show start commands, registration or keys for this node. The hosting details below are what is known about it;{' '}
        <ContactLink subject={`Configure node ${node.mn_id}`}>contact support</ContactLink> to start or register it.
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
