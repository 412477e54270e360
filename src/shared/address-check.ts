import { decodeBase58check, encodeBase58check, isSegwitAddress } from './address-codec';
import { addressParams, type AddressParams, type Base58Version } from './coin-addresses';
import { EIP55_MISMATCH, toChecksumAddress } from './evm-address';

/**
 * What the customer typed into an address or transaction field, checked the way the
 * coin's wallet checks it (./coin-addresses.ts has each coin's parameters), with a
 * message that says what is wrong. Run by the wizard before it sends and by the server
 * on every deploy (deploy-rules.ts), so nothing is charged for a value the coin refuses.
 */

/** A transaction ID: 32 bytes in hex, as every wallet of the Bitcoin family prints it. */
const TXID = /^[0-9a-fA-F]{64}$/;
/** A txid and its output index as wallets print them (`<txid>-1`, `<txid>:1`, `<txid> 1`); nodes/output-text.ts splits it. */
const OUTPOINT = /^[0-9a-fA-F]{64}(?:[-: ]\d{1,5})?$/;

export const TXID_INVALID = 'This is not a transaction ID: it is 64 characters, the digits 0-9 and the letters a-f.';
export const OUTPOINT_INVALID =
  'This is not a transaction ID: it is 64 characters, the digits 0-9 and the letters a-f, optionally followed by the output index (for example -1).';

/** null when `value` is a txid (with an output index where `withIndex`), else the message. */
export function txidProblem(value: string, withIndex: boolean): string | null {
  const v = value.trim();
  if (withIndex) return OUTPOINT.test(v) ? null : OUTPOINT_INVALID;
  return TXID.test(v) ? null : TXID_INVALID;
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Bitcoin-family addresses carry a 20-byte hash (of a key or of a script). */
const HASH_BYTES = 20;

/** The lowest and highest address of one version (every hash byte 0x00, every one 0xff). */
function extremes(v: Base58Version): [string, string] {
  const encode = (fill: number) =>
    encodeBase58check(Uint8Array.from([...v.bytes, ...new Array<number>(HASH_BYTES).fill(fill)]));
  return [encode(0), encode(255)];
}

/**
 * How the addresses of one version start once encoded: one character per version byte,
 * taken from the lowest and highest possible address, with every start between them
 * (Firo's 82 gives "Z" or "a", Horizen's {0x20,0x96} "zs" or "zt"). Computed, so a
 * message cannot disagree with the parameters.
 */
function startsOf(v: Base58Version): string[] {
  const [lo, hi] = extremes(v).map((e) => e.slice(0, v.bytes.length));
  if (lo === hi) return [lo];
  const head = lo.length > 1 && lo[0] === hi[0] ? lo[0] : '';
  const [from, to] = [lo[head.length], hi[head.length]];
  return ALPHABET.slice(ALPHABET.indexOf(from), ALPHABET.indexOf(to) + 1)
    .split('')
    .map((c) => head + c);
}

/** The lengths a base58 address of the coin can have. */
function lengthsOf(p: Extract<AddressParams, { encoding: 'base58' }>): number[] {
  return [...new Set(p.versions.flatMap((v) => extremes(v).map((e) => e.length)))].sort((x, y) => x - y);
}

function startsOfCoin(p: Extract<AddressParams, { encoding: 'base58' }>): string[] {
  const starts = [...new Set(p.versions.flatMap(startsOf))];
  return p.hrp ? [...starts, `${p.hrp}1`] : starts;
}

const orList = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

const a = (label: string) => (/^[AEIOU]/i.test(label) ? 'an' : 'a');

export const notCoinAddress = (label: string, starts: string[]) =>
  `This is not ${a(label)} ${label} address: it should start with ${orList(starts)}.`;
export const addressLength = (label: string, lengths: number[]) =>
  `This is not a whole ${label} address: it is ${orList(lengths.map(String))} characters long.`;
export const addressChecksum = (label: string) =>
  `This ${label} address does not check out (its checksum does not match): check for a typo.`;
export const notEvmAddress = (label: string) =>
  `This is not ${a(label)} ${label} address: it is 0x followed by 40 characters, the digits 0-9 and the letters a-f.`;

const sameBytes = (x: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => x[i] === b);

/**
 * null when `value` is a mainnet address of the coin, else what is wrong with it. A coin
 * whose parameters the platform does not know passes (its daemon is the judge).
 */
export function coinAddressProblem(coin: { id: string; label: string }, value: string): string | null {
  const p = addressParams(coin.id);
  if (!p) return null;
  const label = p.network ?? coin.label;
  const v = value.trim();
  if (p.encoding === 'evm') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(v)) return notEvmAddress(label);
    const body = v.slice(2);
    const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
    return mixed && toChecksumAddress(v) !== v ? EIP55_MISMATCH : null;
  }
  const starts = startsOfCoin(p);
  if (p.hrp && v.toLowerCase().startsWith(`${p.hrp}1`))
    return isSegwitAddress(v, p.hrp) ? null : addressChecksum(label);
  const lengths = lengthsOf(p);
  const decoded = decodeBase58check(v);
  const startsRight = starts.some((s) => v.startsWith(s));
  if (!decoded.ok && startsRight && !lengths.includes(v.length)) return addressLength(label, lengths);
  if (!decoded.ok) {
    // Right start, wrong checksum: most likely a typo in a real address.
    return decoded.why === 'checksum' && startsRight ? addressChecksum(label) : notCoinAddress(label, starts);
  }
  const version = p.versions.find(
    (ver) => decoded.bytes.length === ver.bytes.length + HASH_BYTES && sameBytes(decoded.bytes, ver.bytes),
  );
  return version ? null : notCoinAddress(label, starts);
}
