import { bls12_381 } from '@noble/curves/bls12-381';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy';
import { sha256 } from '@noble/hashes/sha2';
import { blsPublicKeyHex } from '../nodes/bls';

/**
 * Keys the platform makes for a node at deploy time. The secret halves (and a classic
 * coin's masternode key) are sealed into `nodes.secrets` by the caller; only public
 * values go into `output_text`.
 */

/** A dip003 operator key pair: the node signs with the secret; the customer registers the public key. */
export function operatorBlsKeyPair(): { secret: string; publicKey: string } {
  const secret = bls12_381.utils.randomSecretKey();
  return { secret: Buffer.from(secret).toString('hex'), publicKey: blsPublicKeyHex(secret) };
}

/** The public key of a customer's BLS secret (a migrated node's operator key), already checked by isBlsSecretKey. */
export function blsPublicOf(secretHex: string): string {
  return blsPublicKeyHex(Buffer.from(secretHex.trim().replace(/^0x/i, ''), 'hex'));
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58check(payload: Uint8Array): string {
  const check = sha256(sha256(payload)).subarray(0, 4);
  const bytes = Buffer.concat([payload, check]);
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Bitcoin's secret-key prefix, the one a coin keeps unless its chainparams say otherwise. */
export const BITCOIN_WIF_PREFIX = 0x80;

/**
 * A secp256k1 key in wallet import format (compressed), for a classic masternode.conf.
 * `prefix` is the coin's `base58Prefixes[SECRET_KEY]` (catalog `wif_prefix`): a wallet
 * refuses a key with another coin's prefix ("Invalid masternodeprivkey").
 */
export function masternodeKeyWif(prefix: number): string {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 255) throw new RangeError('a WIF prefix is one byte');
  const secret = secp256k1.utils.randomSecretKey();
  return base58check(Uint8Array.from([prefix, ...secret, 0x01]));
}

/**
 * An Energi node's P2P key: the secret the daemon runs with (`--nodekey` file, 64 hex
 * digits as go-ethereum's LoadECDSA reads it) and the node id the owner announces, the
 * uncompressed public key without its 04 prefix (128 hex digits, the user part of an
 * `enode://` URL).
 */
export function energiNodeKey(): { secret: string; enodeId: string } {
  const secret = secp256k1.utils.randomSecretKey();
  return {
    secret: Buffer.from(secret).toString('hex'),
    enodeId: Buffer.from(secp256k1.getPublicKey(secret, false).subarray(1)).toString('hex'),
  };
}

/** DeFiChain's mainnet prefixes: P2PKH addresses start with 8 (18), secrets with 0x80. */
const DFI_PUBKEY_ADDRESS = 18;

/** A DFI operator key: the address the customer names in `createmasternode`, and its secret (WIF). */
export function defiOperatorKey(): { address: string; secretWif: string } {
  const secret = secp256k1.utils.randomSecretKey();
  const pub = secp256k1.getPublicKey(secret, true);
  const address = base58check(Uint8Array.from([DFI_PUBKEY_ADDRESS, ...ripemd160(sha256(pub))]));
  return { address, secretWif: base58check(Uint8Array.from([BITCOIN_WIF_PREFIX, ...secret, 0x01])) };
}
