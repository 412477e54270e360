import { familyOf } from '../../shared/families';
import { UNPLACED_ADDRESS } from '../../shared/unplaced';

/**
 * A node's `output_text` (deployment-and-nodes.md section 3): what the deploy writes per
 * family and what the node page, the export view and the start actions read back. One
 * module builds and parses it, so writer and readers cannot drift. Words are separated
 * by single spaces; a missing value is `-`. Word 0 is a name slot the views replace by
 * the alias or the node id. `{address}` stands for the node's public ip:port until the
 * fleet has placed it (`withAddress` fills it at read time).
 *
 * | family                       | layout (0-based word positions)                                                    |
 * |------------------------------|------------------------------------------------------------------------------------|
 * | classic                      | mn1 {address} - <txid> <index>                                   (masternode.conf)  |
 * | sin                          | mn1 {address} - <txid> <index> <burntxid>-<burn_output_id>                         |
 * |                              |   word 2 is the masternode key's slot: the key is sealed, filled in for the owner  |
 * |                              |   at read time (`withMasternodeKey`)                                               |
 * | dip003, dip003_restrict,     | mn1 {address} - <txid> <index> <payee> <operator BLS public key> <marker>          |
 * | smartnode                    |   marker: not_active (start step pending) · active (started) · migrated            |
 * | zen, playa3ull, satori       | mn1 <entry>   (t_address, licence key, reward address)                             |
 * | nrg                          | mn1 <owner address> <enode id>   (the node key's public half; the key is sealed)   |
 * | monero                       | mn1 <wallet address>   until the fleet replaces it by the node's                  |
 * |                              |   `register_{word}_node ... not_active` (the start command is all but the last)  |
 * | evm                          | JSON {"pubkey":"0x…","fee_recipient":"0x…"}                                        |
 * | defi                         | <operator address> <txid>                                                          |
 *
 * Secrets never go here: the dip003 operator secret, a migrated BLS key, a monero secret
 * key, keystores and their password, a classic coin's masternode key are sealed in `nodes.secrets`.
 */
export const ADDRESS_TOKEN = '{address}';
export const NONE = '-';
export type StartMarker = 'not_active' | 'active' | 'migrated';

export type OutputFields =
  | { kind: 'masternode_conf'; address: string; txid: string; index: number; burn: string | null }
  | {
      kind: 'dip003';
      address: string;
      txid: string | null;
      index: number;
      payee: string | null;
      operatorPubkey: string;
      marker: StartMarker;
    }
  | { kind: 'entry'; entry: string }
  | { kind: 'energi'; entry: string; enodeId: string | null }
  | { kind: 'monero_register'; command: string }
  | { kind: 'validator'; pubkey: string; fee_recipient: string }
  | { kind: 'defi'; operatorAddress: string; txid: string };

const word = (v: string | null | undefined) => (v && v.trim() ? v.trim().replace(/\s+/g, '') : NONE);
const orNull = (w: string | undefined) => (w === undefined || w === NONE ? null : w);

export function buildOutputText(f: OutputFields): string {
  switch (f.kind) {
    case 'masternode_conf':
      return ['mn1', f.address, NONE, word(f.txid), String(f.index), ...(f.burn ? [word(f.burn)] : [])].join(' ');
    case 'dip003':
      return ['mn1', f.address, NONE, word(f.txid), String(f.index), word(f.payee), f.operatorPubkey, f.marker].join(
        ' ',
      );
    case 'entry':
      return `mn1 ${word(f.entry)}`;
    case 'energi':
      return `mn1 ${word(f.entry)} ${word(f.enodeId)}`;
    case 'monero_register':
      // The marker is the last word the views drop (spec: the start command is the output minus its last word).
      return `${f.command.trim()} not_active`;
    case 'validator':
      return JSON.stringify({ pubkey: f.pubkey, fee_recipient: f.fee_recipient });
    case 'defi':
      return `${f.operatorAddress} ${word(f.txid)}`;
  }
}

/** Which layout a family's nodes use (families.ts `output`; an unknown family reads as classic). */
export function outputKind(family: string): OutputFields['kind'] {
  return familyOf(family).output;
}

/** The fields of a node's output text, by its family; null when the text is not in that layout. */
export function parseOutputText(family: string, text: string | null): OutputFields | null {
  if (!text) return null;
  const kind = outputKind(family);
  if (kind === 'validator') {
    try {
      const v = JSON.parse(text) as { pubkey?: unknown; fee_recipient?: unknown };
      return typeof v.pubkey === 'string' && typeof v.fee_recipient === 'string'
        ? { kind, pubkey: v.pubkey, fee_recipient: v.fee_recipient }
        : null;
    } catch {
      return null;
    }
  }
  const w = text.trim().split(/\s+/);
  if (familyOf(family).configView === 'monero' && /^register_[A-Za-z0-9]+_node$/.test(w[0]))
    return { kind: 'monero_register', command: text.trim() };
  switch (kind) {
    case 'masternode_conf':
      if (w.length < 5) return null;
      return { kind, address: w[1], txid: w[3], index: Number(w[4]) || 0, burn: orNull(w[5]) };
    case 'dip003': {
      if (w.length < 8) return null;
      const marker = w[7] as StartMarker;
      if (!['not_active', 'active', 'migrated'].includes(marker)) return null;
      return {
        kind,
        address: w[1],
        txid: orNull(w[3]),
        index: Number(w[4]) || 0,
        payee: orNull(w[5]),
        operatorPubkey: w[6],
        marker,
      };
    }
    case 'defi':
      return w.length >= 2 ? { kind, operatorAddress: w[0], txid: w[1] } : null;
    case 'energi':
      // Nodes deployed before the key was made keep `mn1 <address>`: no enode id.
      return w.length >= 2 ? { kind, entry: w[1], enodeId: orNull(w[2]) } : null;
    default:
      return w.length >= 2 ? { kind: 'entry', entry: w[1] } : null;
  }
}

/** The text as its owner reads it before placement: `unplaced` where the ip:port will go. */
export function withUnplacedWord(text: string): string {
  return text.split(ADDRESS_TOKEN).join(UNPLACED_ADDRESS);
}

/** The text with the node's public ip:port in place of `{address}` (unchanged until it is placed). */
export function withAddress(text: string, ip: string | null, port: number | null): string {
  if (!ip || !port || !text.includes(ADDRESS_TOKEN)) return text;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return text.split(ADDRESS_TOKEN).join(`${host}:${port}`);
}

/**
 * The owner's copy of a masternode.conf-layout text: the key slot (word 2) holds the
 * node's sealed masternode key. Any other layout, or no key, is returned unchanged.
 */
export function withMasternodeKey(family: string, text: string, key: string | null): string {
  if (!key || outputKind(family) !== 'masternode_conf') return text;
  const w = text.trim().split(/\s+/);
  if (w.length < 5 || w[2] !== NONE) return text;
  w[2] = key;
  return w.join(' ');
}

/** A dip003-layout text with its start marker changed (register_submit, quick_setup: not_active → active). */
export function withMarker(text: string, marker: StartMarker): string {
  const w = text.trim().split(/\s+/);
  if (w.length < 8) return text;
  w[7] = marker;
  return w.join(' ');
}

/**
 * The customer's transaction entry as txid and output index: `<txid>`, `<txid>-<n>`,
 * `<txid>:<n>` or `<txid> <n>` (as wallets print it); index 0 when none is given.
 */
export function splitOutpoint(entry: string): { txid: string; index: number } {
  const m = /^(\S+?)(?:[-: ](\d{1,5}))?$/.exec(entry.trim());
  if (!m) return { txid: entry.trim().replace(/\s+/g, ''), index: 0 };
  return { txid: m[1], index: m[2] === undefined ? 0 : Number(m[2]) };
}
