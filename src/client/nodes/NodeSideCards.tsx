import { formatDailyPrice } from '../../shared/format';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { formatCount, MISSING } from '../ui/display';
import { utcDateTime } from './nodeTime';
import { DetailsCard } from '../ui/DetailsCard';
import { SimulatedBadge } from '../ui/SimulatedBadge';

export const planLabel = (p: MasternodeDetail['package']) => (p === 'dedicated' ? 'Dedicated' : 'Cloud');

/** Plan, cost per day and creation time. */
export function HostingCard({ node }: { node: MasternodeDetail }) {
  return (
    <DetailsCard
      title="Hosting details"
      rows={[
        { label: 'Plan', value: planLabel(node.package) },
        { label: 'Cost', value: `$${formatDailyPrice(node.hosting_price)} per day` },
        { label: 'Created on', value: utcDateTime(node.create_date) },
      ]}
    />
  );
}

/** What the node's daemon says about itself; only when the monitor has read it. */
export function WalletCard({
  wallet,
  simulated,
}: {
  wallet: NonNullable<MasternodeDetail['wallet_info']>;
  simulated: boolean;
}) {
  return (
    <DetailsCard
      title="Wallet details"
      rows={[
        { label: 'Version', value: wallet.version || MISSING },
        { label: 'Protocol version', value: wallet.protocol_version || MISSING },
        { label: 'Blocks', value: wallet.blocks === null ? MISSING : formatCount(wallet.blocks) },
        { label: 'Connections', value: wallet.connections === null ? MISSING : formatCount(wallet.connections) },
      ]}
    >
      {simulated && (
        <p className="muted small">
          <SimulatedBadge what="chain" /> These figures come from the demo simulator.
        </p>
      )}
    </DetailsCard>
  );
}

/** The billing facts of deployment-and-nodes.md section 4 ("Billing rules"). */
export function ImportantNotes() {
  return (
    <section className="card important-notes" aria-labelledby="notes-title">
      <h2 id="notes-title">Important notes</h2>
      <ul>
        <li>
          Hosting is charged daily at 00:00 UTC from your balance; a partial-day initial charge is taken when the node
          is created.
        </li>
        <li>The node is charged whatever its status until you delete it.</li>
        <li>
          Reminder emails start 3 days before your balance runs out; nodes whose fees are not covered are destroyed and
          cannot be recovered.
        </li>
        <li>There are no refunds.</li>
      </ul>
    </section>
  );
}
