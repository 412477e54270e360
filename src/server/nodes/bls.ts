import { bls12_381 } from '@noble/curves/bls12-381';

/** Order r of BLS12-381's scalar field: a secret key is an integer in [1, r). */
const CURVE_ORDER = bls12_381.params.r;

/**
 * Whether `hex` is a BLS12-381 secret key: 32 bytes as 64 hex characters (an optional
 * 0x is tolerated), non-zero and below the curve order. Used for the dip003 migration's
 * operator key ("Incorrect BLS key" otherwise) and for what a keystore decrypts to.
 */
export function isBlsSecretKey(hex: string): boolean {
  const h = hex.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(h)) return false;
  const n = BigInt(`0x${h}`);
  return n > 0n && n < CURVE_ORDER;
}

/** The 48-byte compressed G1 public key (Ethereum validators, Dash operators) of a valid secret, as lowercase hex. */
export function blsPublicKeyHex(secret: Uint8Array): string {
  return Buffer.from(bls12_381.longSignatures.getPublicKey(secret).toBytes(true)).toString('hex');
}
