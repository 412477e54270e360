/**
 * What a DIP003 owner pastes to start their node (sign-message start): the JSON that
 * `protx register_prepare` printed (its `tx`), then the signature `signmessage` printed;
 * or "<tx> <signature>" on one line. Anything else is refused with what is wrong, before
 * the daemon is asked. See src/server/nodes/README.md.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A signmessage signature: base64 of 65 bytes. */
const SIG = /^[A-Za-z0-9+/]{87}=$/;
/** A ProRegTx in hex: at least 60 bytes. */
const TX = /^(?:[0-9a-fA-F]{2}){60,100000}$/;

export const REGISTER_MESSAGES = {
  empty: 'Paste the register_prepare output and the signature.',
  badJson: 'The register_prepare output is not valid JSON: paste it exactly as the wallet printed it.',
  noTx: 'The register_prepare output has no "tx" field.',
  badTx: 'The transaction is not valid hex.',
  noSig: 'The signature is missing: paste the text signmessage printed after the register_prepare output.',
  badSig: 'The signature is not valid: it is the 88-character text signmessage printed.',
  extra: 'Expected the register_prepare output and the signature, nothing else.',
} as const;

export function parseRegisterOutput(text: string): Parsed<{ tx: string; sig: string }> {
  const input = text.trim();
  if (!input) return { ok: false, message: REGISTER_MESSAGES.empty };
  let tx: string;
  let rest: string;
  if (input.startsWith('{')) {
    const end = input.lastIndexOf('}');
    let json: unknown;
    try {
      json = JSON.parse(input.slice(0, end + 1));
    } catch {
      return { ok: false, message: REGISTER_MESSAGES.badJson };
    }
    const o = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    if (typeof o.tx !== 'string') return { ok: false, message: REGISTER_MESSAGES.noTx };
    tx = o.tx;
    rest = input.slice(end + 1).trim();
  } else {
    const words = input.split(/\s+/);
    if (words.length === 1)
      return { ok: false, message: TX.test(words[0]) ? REGISTER_MESSAGES.noSig : REGISTER_MESSAGES.empty };
    if (words.length > 2) return { ok: false, message: REGISTER_MESSAGES.extra };
    [tx, rest] = words;
  }
  if (!TX.test(tx)) return { ok: false, message: REGISTER_MESSAGES.badTx };
  const sig = rest.replace(/^"|"$/g, '');
  if (!sig) return { ok: false, message: REGISTER_MESSAGES.noSig };
  if (/\s/.test(sig)) return { ok: false, message: REGISTER_MESSAGES.extra };
  if (!SIG.test(sig)) return { ok: false, message: REGISTER_MESSAGES.badSig };
  return { ok: true, value: { tx: tx.toLowerCase(), sig } };
}

/**
 * Quick setup (smartnode family): the owner ran `protx quick_setup` in their wallet and
 * pastes the file it wrote, or only the operator BLS secret from its
 * `smartnodeblsprivkey=` line. Answers the secret (64 hex).
 */
export function parseQuickSetup(text: string): Parsed<string> {
  const lines = text
    .trim()
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (!lines.length) return { ok: false, message: 'Paste the text the wallet wrote.' };
  let key: string;
  if (lines.length === 1 && !lines[0].includes('=')) key = lines[0];
  else {
    const found = lines
      .map((l) => /^(?:smartnode|masternode)blsprivkey\s*=\s*(\S+)$/.exec(l))
      .filter((m) => m !== null);
    if (found.length === 0)
      return {
        ok: false,
        message: 'No smartnodeblsprivkey line found: paste the file protx quick_setup wrote, or the key alone.',
      };
    if (found.length > 1) return { ok: false, message: "The text holds more than one BLS key: paste one node's file." };
    key = found[0][1];
  }
  if (!/^[0-9a-fA-F]{64}$/.test(key))
    return { ok: false, message: 'The BLS secret key must be 64 hexadecimal characters.' };
  return { ok: true, value: key.toLowerCase() };
}
