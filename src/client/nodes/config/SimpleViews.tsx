import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { Alert } from '../../ui/Alert';
import { MISSING } from '../../ui/display';
import { DetailRow } from '../NodeDetails';
import { Commands, ConfigCard } from './parts';

/** The classic start-command view: the masternode.conf line and the start command, or word that there is nothing to run. */
export function ClassicView({ node }: { node: MasternodeDetail }) {
  const { commands } = node.setup;
  return (
    <ConfigCard title="Start your masternode">
      {commands.length ? (
        <>
          <p>
            Add the configuration line to your local wallet’s masternode configuration file, restart the wallet, then
            run the start command in its console.
          </p>
          <Commands commands={commands} />
        </>
      ) : (
        <Alert kind="info">There is nothing to run for this node: it needs no start command from your wallet.</Alert>
      )}
    </ConfigCard>
  );
}

/** Horizen: the node registers itself with the network's tracker; its addresses are listed for the customer's records. */
export function ZenView({ node }: { node: MasternodeDetail }) {
  return (
    <ConfigCard title="Your Horizen node">
      <p>
        Your node runs and reports to the Horizen network on its own: there is nothing to run from your wallet. Keep the
        collateral on the address you entered. The first reward comes after 1 week, then one every 24 hours.
      </p>
      {node.zen && (
        <table className="table details-table" aria-label="Horizen node">
          <tbody>
            <DetailRow label="FQDN">{node.zen.fqdn ?? MISSING}</DetailRow>
            <DetailRow label="IPv4">{node.zen.ip4 ?? MISSING}</DetailRow>
            <DetailRow label="IPv6">{node.zen.ip6 ?? MISSING}</DetailRow>
          </tbody>
        </table>
      )}
      {node.setup.commands.length > 0 && <Commands commands={node.setup.commands} />}
    </ConfigCard>
  );
}

/** Where Energi's collateral is deposited and the masternode announced (the coin's own web wallet). */
export const ENERGI_WALLET_URL = 'https://wallet.energi.network/';

/** Energi: the step-by-step guide (section 2). */
export function NrgView({ node }: { node: MasternodeDetail }) {
  return (
    <ConfigCard title="Start your Energi masternode">
      {node.status === 'running' && <Alert kind="success">Your masternode is announced and running.</Alert>}
      <ol className="config-steps">
        <li>
          Open the{' '}
          <a href={ENERGI_WALLET_URL} target="_blank" rel="noopener noreferrer">
            Energi web wallet
          </a>{' '}
          and unlock the address you entered when you deployed.
        </li>
        <li>
          Deposit the collateral ({node.collateral.toLocaleString('en-US')} NRG) as masternode collateral from that
          address.
        </li>
        <li>
          Announce the masternode from that address with the values below, then wait: the node starts within about 15
          minutes of the announcement.
        </li>
      </ol>
      {node.setup.commands.length > 0 && <Commands commands={node.setup.commands} />}
      {node.setup.missing && <Alert kind="info">{node.setup.missing}</Alert>}
    </ConfigCard>
  );
}

/** 3ULL: nothing to do. */
export function PlayaView() {
  return (
    <ConfigCard title="Your node">
      <Alert kind="success">Your node is deployed and needs no action from you.</Alert>
    </ConfigCard>
  );
}
