import { randomBytes } from 'node:crypto';
import type { Masternode } from '../db/schema';
import type { SecretBox } from '../secrets/box';

/**
 * The secrets a node runs with: one JSON object, sealed into `nodes.secrets` by the
 * deploy. The additional data binds the sealed text to its node, so it cannot be copied
 * to another row.
 */
export const secretsAad = (mnId: string) => `node:${mnId}:secrets`;

/** As sealed (JSON). */
export type StoredSecrets = {
  /** dip003 and smartnodes: the operator BLS secret (made at deploy, the customer's when migrating, or given by quick setup). */
  operator_bls_secret?: string;
  /** DFI: the operator address's key (WIF). */
  operator_key?: string;
  monero_secret?: string;
  /** Validators: the EIP-2335 keystore and its password. */
  keystore?: string;
  keystore_password?: string;
  /** Classic and SIN: the masternode key (WIF) of the owner's masternode.conf line; never in output_text. */
  masternode_key?: string;
  /** Validators: the Bearer token of the validator client's Keymanager API (made at deploy). */
  keymanager_token?: string;
  /** Energi: the daemon's P2P node key (hex); its public half is the enode id the owner announces. */
  node_key?: string;
};

export function sealSecrets(box: Pick<SecretBox, 'seal'>, mnId: string, secrets: StoredSecrets): string | null {
  return Object.keys(secrets).length ? box.seal(JSON.stringify(secrets), secretsAad(mnId)) : null;
}

/** All of them, as sealed; empty when the node keeps none. Throws when the sealed text does not open (wrong key, moved value). */
function openStored(box: Pick<SecretBox, 'open'>, node: Pick<Masternode, 'mn_id' | 'secrets'>): StoredSecrets {
  return node.secrets ? (JSON.parse(box.open(node.secrets, secretsAad(node.mn_id))) as StoredSecrets) : {};
}

/**
 * The node's sealed secrets with its operator secret set to `secret` (quick setup: the key
 * the owner's wallet made), the rest kept. `operatorKeyFor` returns it from then on, so a
 * restart or a re-provision writes the same key into the daemon's config.
 */
export function withOperatorSecret(
  box: Pick<SecretBox, 'open' | 'seal'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
  secret: string,
): string {
  return box.seal(JSON.stringify({ ...openStored(box, node), operator_bls_secret: secret }), secretsAad(node.mn_id));
}

/**
 * Every value the platform wrote as this node's secret (for masking its log): each sealed
 * string, a hex key also without its 0x, and a keystore's ciphertext. Empty when none;
 * throws as openNodeSecrets.
 */
export function secretValues(box: Pick<SecretBox, 'open'>, node: Pick<Masternode, 'mn_id' | 'secrets'>): string[] {
  const out: string[] = [];
  for (const value of Object.values(openStored(box, node))) {
    if (typeof value !== 'string' || !value) continue;
    out.push(value);
    if (value.startsWith('0x')) out.push(value.slice(2));
    try {
      const cipher = (JSON.parse(value) as { crypto?: { cipher?: { message?: unknown } } }).crypto?.cipher?.message;
      if (typeof cipher === 'string') out.push(cipher);
    } catch {
      // not JSON: a plain key
    }
  }
  return out;
}

/** What the node's views show of them. */
export type NodeSecrets = {
  operatorSecret: string | null;
  moneroSecret: string | null;
};

/** Null when the node keeps no secrets; throws when the sealed text does not open (wrong key, moved value). */
export function openNodeSecrets(
  box: Pick<SecretBox, 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
): NodeSecrets | null {
  if (!node.secrets) return null;
  const o = openStored(box, node);
  return { operatorSecret: o.operator_bls_secret ?? o.operator_key ?? null, moneroSecret: o.monero_secret ?? null };
}

/** Classic and SIN: the masternode key sealed with the node's secrets; null when it holds none. Throws as openNodeSecrets. */
export function openMasternodeKey(
  box: Pick<SecretBox, 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
): string | null {
  return openStored(box, node).masternode_key ?? null;
}

/**
 * The node's sealed secrets with `more` added (a value already there is replaced). Throws
 * when the present value does not open, so no secret is lost by re-sealing over it.
 */
export function sealWithMore(
  box: Pick<SecretBox, 'seal' | 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
  more: StoredSecrets,
): string | null {
  return sealSecrets(box, node.mn_id, { ...openStored(box, node), ...more });
}

/**
 * A validator's validator client: its keystore, password and Keymanager token with the
 * row's pubkey and fee recipient. Null when the node is no validator or lacks one of them.
 */
export function openValidatorRun(
  box: Pick<SecretBox, 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets' | 'validator_pubkey' | 'fee_recipient'>,
): { pubkey: string; keystore: string; password: string; feeRecipient: string; token: string } | null {
  if (!node.secrets || !node.validator_pubkey || !node.fee_recipient) return null;
  const o = openStored(box, node);
  if (!o.keystore || o.keystore_password === undefined || !o.keymanager_token) return null;
  return {
    pubkey: node.validator_pubkey,
    keystore: o.keystore,
    password: o.keystore_password,
    feeRecipient: node.fee_recipient,
    token: o.keymanager_token,
  };
}

/** The Keymanager API token alone (the node page's fee change); null when the node has none. */
export function keymanagerTokenOf(
  box: Pick<SecretBox, 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
): string | null {
  return openStored(box, node).keymanager_token ?? null;
}

/**
 * A validator's sealed secrets with a Keymanager token added when they hold a keystore but
 * no token (validators deployed before their client had the API); null when nothing is
 * to add. Its client starts with the token from then on, and the fee change can use it.
 */
export function withKeymanagerToken(
  box: Pick<SecretBox, 'seal' | 'open'>,
  node: Pick<Masternode, 'mn_id' | 'secrets'>,
): string | null {
  const o = openStored(box, node);
  if (!o.keystore || o.keymanager_token) return null;
  return sealWithMore(box, node, { keymanager_token: randomBytes(32).toString('hex') });
}

/** Energi: the P2P node key sealed with the node's secrets; null when it holds none. Throws as openNodeSecrets. */
export function openNodeKey(box: Pick<SecretBox, 'open'>, node: Pick<Masternode, 'mn_id' | 'secrets'>): string | null {
  return openStored(box, node).node_key ?? null;
}
