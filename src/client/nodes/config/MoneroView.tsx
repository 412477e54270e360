import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { Alert } from '../../ui/Alert';
import { CopyBlock } from '../../ui/CopyButton';
import { moneroState } from '../configState';
import { ConfigCard } from './parts';

/** Monero-type (section 4): running → done; a register command → run it; else still syncing. */
export function MoneroView({ node }: { node: MasternodeDetail }) {
  const state = moneroState(node.status, node.output_text);
  return (
    <ConfigCard title="Start your masternode">
      {state.kind === 'running' && (
        <Alert kind="success">
          <strong>Congratulations</strong> Your node is running.
        </Alert>
      )}
      {state.kind === 'start' && (
        <>
          <p>
            Run this command from your local {node.currency_data.label} wallet to stake your collateral and register the
            node:
          </p>
          <CopyBlock label="Start command" text={state.command} />
        </>
      )}
      {state.kind === 'syncing' && (
        <Alert kind="info">
          <strong>Syncing</strong> Your node is syncing with the network. This may take up to an hour; we will send you
          an email when it is ready to start.
        </Alert>
      )}
    </ConfigCard>
  );
}
