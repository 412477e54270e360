import { formatDailyPrice } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { formatCount, MISSING } from '../ui/display';
import { utcDateTime } from './nodeTime';
import { DetailRow } from './NodeDetails';
import { SimulatedBadge } from '../ui/SimulatedBadge';

export const planLabel = (p: MasternodeDetail['package']) => (p === 'dedicated' ? 'Dedicated' : 'Cloud');

/** Plan, cost per day and creation time. */
export function HostingCard({ node }: { node: MasternodeDetail }) {
  return (
    <section className="card table-card" aria-labelledby="hosting-title">
      <h2 id="hosting-title" className="card-title">
        Hosting details
      </h2>
      <table className="table details-table" aria-labelledby="hosting-title">
        <tbody>
          <DetailRow label="Plan">{planLabel(node.package)}</DetailRow>
          <DetailRow label="Cost">${formatDailyPrice(node.hosting_price)} per day</DetailRow>
          <DetailRow label="Created on">{utcDateTime(node.create_date)}</DetailRow>
        </tbody>
      </table>
    </section>
  );
}

/** What the node's daemon says about itself; only when the monitor has read it. */
export function WalletCard({ wallet, simulated }: { wallet: NonNullable<MasternodeDetail['wallet_info']>; simulated: boolean }) {
  return (
    <section className="card table-card" aria-labelledby="wallet-title">
      <h2 id="wallet-title" className="card-title">
        Wallet details {simulated && <SimulatedBadge what="chain" />}
      </h2>
      <table className="table details-table" aria-labelledby="wallet-title">
        <tbody>
          <DetailRow label="Version">{wallet.version || MISSING}</DetailRow>
          <DetailRow label="Protocol version">{wallet.protocol_version || MISSING}</DetailRow>
          <DetailRow label="Blocks">{wallet.blocks === null ? MISSING : formatCount(wallet.blocks)}</DetailRow>
          <DetailRow label="Connections">{wallet.connections === null ? MISSING : formatCount(wallet.connections)}</DetailRow>
        </tbody>
      </table>
    </section>
  );
}

/** The billing facts of deployment-and-nodes.md section 4 ("Billing rules"). */
export function ImportantNotes() {
  return (
    <section className="card important-notes" aria-labelledby="notes-title">
      <h2 id="notes-title">Important notes</h2>
      <ul>
        <li>Hosting is charged daily at 00:00 UTC from your balance; a partial-day initial charge is taken when the node is created.</li>
        <li>The node is charged whatever its status until you delete it.</li>
        <li>Reminder emails start 3 days before your balance runs out; nodes whose fees are not covered are destroyed and cannot be recovered.</li>
        <li>There are no refunds.</li>
      </ul>
    </section>
  );
}
