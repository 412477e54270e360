/**
 * Reads a node's `output_text` (section 3: space-separated per-coin values with a start
 * marker; JSON for EVM validators; "operatorAddress txid" for DFI). The deploy writes it
 * with output-text.ts; this reader relies only on what the spec says and tolerates the
 * rest (rows older than that layout, texts an operator edited): markers are whole words
 * anywhere, values are found by their shape.
 */
export type StartMarker = 'not_active' | 'active' | 'migrated';

const words = (text: string | null | undefined) => (text ?? '').trim().split(/\s+/).filter(Boolean);

export function startMarker(text: string | null | undefined): StartMarker | null {
  const w = words(text);
  if (w.includes('not_active')) return 'not_active';
  if (w.includes('migrated')) return 'migrated';
  if (w.includes('active')) return 'active';
  return null;
}

/** EVM validators: `{pubkey, fee_recipient}` (JSON); null when the text is not that. */
export function validatorOutput(
  text: string | null | undefined,
): { pubkey: string | null; fee_recipient: string | null } | null {
  try {
    const j = JSON.parse(text ?? '') as unknown;
    if (typeof j !== 'object' || j === null || Array.isArray(j)) return null;
    const o = j as Record<string, unknown>;
    return {
      pubkey: typeof o.pubkey === 'string' ? o.pubkey : null,
      fee_recipient: typeof o.fee_recipient === 'string' ? o.fee_recipient : null,
    };
  } catch {
    return null;
  }
}

/** Rewrites the validator JSON with a new fee recipient, keeping its other fields. */
export function withFeeRecipient(text: string | null | undefined, pubkey: string | null, feeRecipient: string): string {
  let base: Record<string, unknown> = {};
  try {
    const j = JSON.parse(text ?? '') as unknown;
    if (typeof j === 'object' && j !== null && !Array.isArray(j)) base = j as Record<string, unknown>;
  } catch {
    // Not JSON yet: start from the fields we know.
  }
  return JSON.stringify({ ...base, pubkey: base.pubkey ?? pubkey, fee_recipient: feeRecipient });
}

/** Monero-type: the `register_{word}_node …` command the owner runs, without the marker word the output may end with. */
export function registerCommand(text: string | null | undefined): string | null {
  const w = words(text);
  if (!w.length || !/^register_\w+_node$/.test(w[0])) return null;
  const last = w[w.length - 1];
  return (last === 'not_active' || last === 'active' || last === 'migrated' ? w.slice(0, -1) : w).join(' ');
}

const TXID = /^[0-9a-fA-F]{64}$/;
const BLS_PUB = /^(0x)?[0-9a-fA-F]{96}$/;

/** The first 64-hex word (a collateral transaction id), and the word after it when it is an output index. */
export function collateralOf(text: string | null | undefined): { txid: string; index: number | null } | null {
  const w = words(text);
  const i = w.findIndex((x) => TXID.test(x));
  if (i < 0) return null;
  const next = w[i + 1];
  return { txid: w[i].toLowerCase(), index: next !== undefined && /^\d{1,4}$/.test(next) ? Number(next) : null };
}

/** A BLS public key (96 hex) written in the output text, e.g. the operator key of a DIP003 node. */
export function blsPublicKeyOf(text: string | null | undefined): string | null {
  const hit = words(text).find((x) => BLS_PUB.test(x));
  return hit ? hit.replace(/^0x/, '').toLowerCase() : null;
}

/** DFI: "operatorAddress txid". */
export function defiOutput(text: string | null | undefined): { operatorAddress: string | null; txid: string | null } {
  const w = words(text);
  return { operatorAddress: w[0] ?? null, txid: w[1] ?? null };
}
