import type { Masternode } from '../db/schema';
import type { SecretBox } from '../secrets/box';
import { openMasternodeKey, openNodeKey, openNodeSecrets } from './node-secrets';
import { outputKind, parseOutputText } from './output-text';

/**
 * What a node's real daemon is given under its profile's `operator_key_option`: the
 * operator BLS secret (DIP003 family, sealed), the masternode key of a classic coin (sealed,
 * the key of its masternode.conf line), DFI's operator address, an Energi node's P2P key
 * (written as the profile's `node_key_file` instead). Null when the family has
 * none or the node does not hold one yet.
 */
export function operatorKeyFor(
  box: Pick<SecretBox, 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets' | 'output_text'>,
  family: string,
): string | null {
  switch (outputKind(family)) {
    case 'dip003':
      return openNodeSecrets(box, node)?.operatorSecret ?? null;
    case 'masternode_conf':
      return openMasternodeKey(box, node);
    case 'energi':
      return openNodeKey(box, node);
    case 'defi': {
      const f = parseOutputText(family, node.output_text);
      return f?.kind === 'defi' ? f.operatorAddress : null;
    }
    default:
      return null;
  }
}
