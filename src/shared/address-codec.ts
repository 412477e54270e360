import { base58check, bech32, bech32m } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2';

/**
 * Decoding of the two address encodings of the Bitcoin family, as their wallets check
 * them: base58check (Satoshi's: version bytes, payload, the first 4 bytes of a double
 * SHA-256 as checksum) and segwit's bech32 (BIP-173, witness version 0) and bech32m
 * (BIP-350, witness versions 1 to 16). Pure, for the wizard and the server alike.
 */
const b58 = base58check(sha256);

export type Base58Decoded = { ok: true; bytes: Uint8Array } | { ok: false; why: 'alphabet' | 'checksum' };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

export function decodeBase58check(text: string): Base58Decoded {
  if (!BASE58.test(text)) return { ok: false, why: 'alphabet' };
  try {
    return { ok: true, bytes: b58.decode(text) };
  } catch {
    return { ok: false, why: 'checksum' };
  }
}

export function encodeBase58check(bytes: Uint8Array): string {
  return b58.encode(bytes);
}

/**
 * A segwit address of `hrp` (BIP-173/BIP-350): witness version 0 in bech32 with a 20 or
 * 32 byte program, versions 1 to 16 in bech32m with 2 to 40 bytes. Mixed case is refused
 * (BIP-173), as is any other checksum or length.
 */
export function isSegwitAddress(text: string, hrp: string): boolean {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
  const lower = text.toLowerCase();
  if (!lower.startsWith(`${hrp}1`) || lower.length > 90) return false;
  for (const coder of [bech32, bech32m]) {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = coder.decode(lower as `${string}1${string}`, 90);
    } catch {
      continue;
    }
    if (decoded.prefix !== hrp || decoded.words.length === 0) return false;
    const [version, ...data] = decoded.words;
    if (version > 16) return false;
    // BIP-350: version 0 must use bech32, every later version bech32m.
    if ((version === 0) !== (coder === bech32)) return false;
    const program = coder.fromWordsUnsafe(data);
    if (!program) return false;
    if (program.length < 2 || program.length > 40) return false;
    return version !== 0 || program.length === 20 || program.length === 32;
  }
  return false;
}
