import type { Masternode } from '../db/schema';
import type { SecretBox } from '../secrets/box';

/**
 * The secrets a node runs with, as the deploy sealed them into `nodes.secrets` (one JSON
 * object). The AAD binds the sealed text to its node, so it cannot be copied to another.
 * The deploy names the operator key `operator_bls_secret` (deploy/node-fields.ts); older
 * names are still read.
 */
export const nodeSecretsAad = (mnId: string) => `node:${mnId}:secrets`;

export type NodeSecrets = {
  operatorSecret: string | null;
  moneroSecret: string | null;
  withdrawalAddress: string | null;
};

const str = (o: Record<string, unknown>, ...keys: string[]) => {
  for (const k of keys) if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  return null;
};

/** Null when the node keeps no secrets; throws when the sealed text does not open (wrong key, moved value). */
export function openNodeSecrets(box: Pick<SecretBox, 'open'>, node: Pick<Masternode, 'mn_id' | 'secrets'>): NodeSecrets | null {
  if (!node.secrets) return null;
  const o = JSON.parse(box.open(node.secrets, nodeSecretsAad(node.mn_id))) as Record<string, unknown>;
  return {
    operatorSecret: str(o, 'operator_bls_secret', 'operator_secret', 'bls_secret', 'blsKey', 'bls_key'),
    moneroSecret: str(o, 'monero_secret', 'moneroSecret'),
    withdrawalAddress: str(o, 'withdrawal_address', 'withdrawalAddress'),
  };
}

export function sealNodeSecrets(box: Pick<SecretBox, 'seal'>, mnId: string, secrets: Record<string, string>): string {
  return box.seal(JSON.stringify(secrets), nodeSecretsAad(mnId));
}
