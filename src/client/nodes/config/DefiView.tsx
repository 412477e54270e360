import { useId, useState } from 'react';
import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { Alert } from '../../ui/Alert';
import { CopyBlock } from '../../ui/CopyButton';
import { Commands, ConfigCard } from './parts';

/**
 * A DeFiChain owner address: legacy (P2PKH, version byte 18: starts with 8) or bech32 with
 * the human-readable part df (DeFiCh/ain src/chainparams.cpp, mainnet base58Prefixes and
 * bech32_hrp). Only its shape is checked here: the wallet checks the rest.
 */
const DFI_OWNER_ADDRESS = /^(8[1-9A-HJ-NP-Za-km-z]{33}|df1[02-9ac-hj-np-z]{39,59})$/;

/**
 * DeFiChain: the hosted node runs as the masternode's operator (its defi.conf line is
 * shown); the owner creates the masternode from their own wallet, naming their owner
 * address and this node's operator address. The command is built from the owner address
 * they type, so it is complete when shown.
 */
export function DefiView({ node }: { node: MasternodeDetail }) {
  const [owner, setOwner] = useState('');
  const inputId = useId();
  const operator = node.setup.fields.find((f) => f.label === 'Operator address')?.value ?? null;
  const trimmed = owner.trim();
  const valid = DFI_OWNER_ADDRESS.test(trimmed);
  return (
    <ConfigCard title="Create your DeFiChain masternode">
      {node.setup.missing && <Alert kind="info">{node.setup.missing}</Alert>}
      {operator && (
        <>
          <p>
            Your hosted node already runs with this line in its configuration file: it mints blocks as the masternode’s
            operator. There is nothing to add to your own wallet’s configuration.
          </p>
          <Commands commands={node.setup.commands} />
          <p>
            Then create the masternode from your DeFiChain wallet’s console. Your wallet spends the{' '}
            {node.collateral.toLocaleString('en-US')} DFI collateral (plus the network’s creation fee) and keeps it on
            your owner address; the node starts minting once the network has enabled the masternode.
          </p>
          <div className="field">
            <label htmlFor={inputId}>Your owner address (a legacy address starting with 8, or df1…)</label>
            <input
              id={inputId}
              value={owner}
              onChange={(e) => setOwner(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            {trimmed && !valid && (
              <p className="field-error" role="alert">
                This is not a DeFiChain address: it should start with 8 or df1.
              </p>
            )}
          </div>
          {valid && (
            <CopyBlock
              label="Create the masternode from your wallet"
              text={`createmasternode ${trimmed} ${operator}`}
            />
          )}
        </>
      )}
    </ConfigCard>
  );
}
