import { createHash } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { base58check, bech32 } from '@scure/base';

/*
 * Deposit addresses of the Bitcoin family, derived from the operator's extended public key
 * on its receive chain (`<xpub>/0/<index>`): the server never holds a private key. The
 * daemon's watch-only wallet imports the same chain as a descriptor, so both sides derive
 * the same addresses (the peers test checks it against the daemon's `deriveaddresses`).
 */

// Extended public key version bytes: mainnet `xpub`, testnet and regtest `tpub`.
const VERSIONS = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  tpub: { public: 0x043587cf, private: 0x04358394 },
} as const;

/** `wpkh:<bech32 prefix>` (native segwit, e.g. `wpkh:ltc`, `wpkh:rltc`) or `pkh:<version byte>` (legacy, e.g. Dash `pkh:76`). */
export type AddressType = { kind: 'wpkh'; hrp: string } | { kind: 'pkh'; version: number };

export class BadKeyError extends Error {}

export function parseAddressType(text: string): AddressType {
  const w = /^wpkh:([a-z]{1,16})$/.exec(text);
  if (w) return { kind: 'wpkh', hrp: w[1] };
  const p = /^pkh:(\d{1,3})$/.exec(text);
  if (p && Number(p[1]) <= 255) return { kind: 'pkh', version: Number(p[1]) };
  throw new BadKeyError(`address type must be wpkh:<bech32 prefix> or pkh:<version byte 0-255>, not "${text}"`);
}

/** The account key; throws BadKeyError for anything but a valid xpub/tpub (a private key included). */
export function parseXpub(xpub: string): HDKey {
  const prefix = xpub.slice(0, 4);
  if (prefix !== 'xpub' && prefix !== 'tpub')
    throw new BadKeyError('the key must be an extended public key (xpub… or tpub…)');
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub, VERSIONS[prefix]);
  } catch (err) {
    throw new BadKeyError(`not a valid extended public key (${(err as Error).message})`);
  }
  if (key.privateKey) throw new BadKeyError('the key must be public: a private key is never stored');
  return key;
}

const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());

/** The address at `index` of the receive chain. */
export function deriveAddress(xpub: string, type: AddressType, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 0x80000000)
    throw new RangeError(`bad derivation index ${index}`);
  const hash = parseXpub(xpub).deriveChild(0).deriveChild(index).pubKeyHash;
  if (!hash) throw new BadKeyError('derivation gave no public key');
  if (type.kind === 'wpkh') return bech32.encode(type.hrp, [0, ...bech32.toWords(hash)]);
  return base58check(sha256).encode(new Uint8Array([type.version, ...hash]));
}

/** The watch-only descriptor of the receive chain (without its checksum; the daemon adds it). */
export function receiveDescriptor(xpub: string, type: AddressType): string {
  return `${type.kind}(${xpub}/0/*)`;
}
