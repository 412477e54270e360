import { familyOf, takesField } from '../../shared/families';
import type { DeployServerInput } from '../../shared/schemas/deploy';
import type { CoinRecord } from '../db/schema';
import type { NodeFields } from '../nodes/lifecycle';
import { newNodeId } from '../nodes/lifecycle';
import { ADDRESS_TOKEN, buildOutputText, outputKind, splitOutpoint } from '../nodes/output-text';
import type { SecretBox } from '../secrets/box';
import { sealSecrets, type StoredSecrets } from '../nodes/node-secrets';
import { coinDetails } from '../coins/catalog';
import {
  BITCOIN_WIF_PREFIX,
  blsPublicOf,
  defiOperatorKey,
  energiNodeKey,
  masternodeKeyWif,
  operatorBlsKeyPair,
} from './node-keys';

type Input = Pick<DeployServerInput, 'txid' | 'payee' | 'blsKey' | 'migrate' | 'monero_secret' | 'burntxid' | 'burn_output_id'>;

/**
 * One node's fields for a JSON deploy (every family but validators and Satori's count):
 * its id, what the customer typed, the output text of its family (nodes/output-text.ts)
 * and its sealed secrets. Input is already checked.
 */
export function nodeFieldsFor(coin: CoinRecord, input: Input, box: SecretBox, extra: Partial<NodeFields> = {}): NodeFields {
  const mnId = newNodeId(coin.id);
  const entry = (input.txid ?? '').trim();
  const secrets: StoredSecrets = {};
  let output: string;
  const kind = outputKind(coin.family);
  if (kind === 'dip003') {
    const migrate = input.migrate === true && !!input.blsKey?.trim();
    const { txid, index } = splitOutpoint(entry);
    let operatorPubkey: string;
    if (migrate) {
      secrets.operator_bls_secret = input.blsKey!.trim().replace(/^0x/i, '').toLowerCase();
      operatorPubkey = blsPublicOf(secrets.operator_bls_secret);
    } else {
      const pair = operatorBlsKeyPair();
      secrets.operator_bls_secret = pair.secret;
      operatorPubkey = pair.publicKey;
    }
    output = buildOutputText({ kind, address: ADDRESS_TOKEN, txid: txid || null, index, payee: input.payee?.trim() || null, operatorPubkey, marker: migrate ? 'migrated' : 'not_active' });
  } else if (kind === 'masternode_conf') {
    const { txid, index } = splitOutpoint(entry);
    const burn = familyOf(coin.family).wizard === 'burn' ? `${input.burntxid?.trim()}-${input.burn_output_id}` : null;
    // The key is the owner's to paste into masternode.conf: sealed, shown only on their views.
    secrets.masternode_key = masternodeKeyWif(coinDetails(coin).wif_prefix ?? BITCOIN_WIF_PREFIX);
    output = buildOutputText({ kind, address: ADDRESS_TOKEN, txid, index, burn });
  } else if (kind === 'defi') {
    const op = defiOperatorKey();
    secrets.operator_key = op.secretWif;
    output = buildOutputText({ kind, operatorAddress: op.address, txid: entry });
  } else if (kind === 'energi') {
    // The node's P2P key is made here, so its enode URL (what the owner announces) is known
    // from the start; the daemon runs with the sealed key (operator-key.ts).
    const key = energiNodeKey();
    secrets.node_key = key.secret;
    output = buildOutputText({ kind, entry, enodeId: key.enodeId });
  } else {
    output = buildOutputText({ kind: 'entry', entry });
  }
  const moneroSecret = input.monero_secret?.trim();
  if (takesField(coin.family, 'monero_secret') && moneroSecret) secrets.monero_secret = moneroSecret;
  return {
    mn_id: mnId,
    entry: entry || null,
    payee: input.payee?.trim() || null,
    output_text: output,
    secrets: sealSecrets(box, mnId, secrets),
    ...extra,
  };
}
