import { bls12_381 } from '@noble/curves/bls12-381';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy';
import { sha256 } from '@noble/hashes/sha2';
import { blsPublicKeyHex } from '../nodes/bls';

/**
 * Keys the platform makes for a node at deploy time. The secret halves are sealed into
 * `nodes.secrets` by the caller; only public values and the customer's masternode.conf
 * key go into `output_text`.
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

/**
 * A secp256k1 key in wallet import format (compressed), for a classic masternode.conf.
 * `version` is the coin's secret-key prefix; 0x80 (Bitcoin's) unless the coin says otherwise.
 */
export function masternodeKeyWif(version = 0x80): string {
  const secret = secp256k1.utils.randomSecretKey();
  return base58check(Uint8Array.from([version, ...secret, 0x01]));
}

/** DeFiChain's mainnet prefixes: P2PKH addresses start with 8 (18), secrets with 0x80. */
const DFI_PUBKEY_ADDRESS = 18;

/** A DFI operator key: the address the customer names in `createmasternode`, and its secret (WIF). */
export function defiOperatorKey(): { address: string; secretWif: string } {
  const secret = secp256k1.utils.randomSecretKey();
  const pub = secp256k1.getPublicKey(secret, true);
  const address = base58check(Uint8Array.from([DFI_PUBKEY_ADDRESS, ...ripemd160(sha256(pub))]));
  return { address, secretWif: base58check(Uint8Array.from([0x80, ...secret, 0x01])) };
}
