import { keccak_256 } from '@noble/hashes/sha3';
import { utf8ToBytes } from '@noble/hashes/utils';
import { z } from 'zod';

/**
 * An EVM address as a customer types it (fee recipient of a validator), checked the
 * same way in the browser and on the server. All-lowercase and all-uppercase hex carry
 * no checksum (EIP-55 leaves them unchecked); mixed case must match the EIP-55 checksum,
 * so a one-letter typo in a copied checksummed address is caught. A bad checksum gets its
 * own message: the shape is right, so "Invalid address" left the customer with nothing to
 * fix, while the same address in lower case (no checksum) passed.
 */
export const ADDRESS_REQUIRED = 'Address required';
export const INVALID_ADDRESS = 'Invalid address';
export const EIP55_MISMATCH =
  "The address's checksum (EIP-55) does not match: check for a typo, or paste it in lower case.";

const SHAPE = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case form of a 0x + 40 hex address (any case in). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(utf8ToBytes(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    // Nibble i of the hash: high nibble of byte i/2 for even i, low for odd.
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}

/** null when the address is acceptable, else the message to show under the field. */
export function evmAddressError(input: string | null | undefined): string | null {
  const value = (input ?? '').trim();
  if (value === '') return ADDRESS_REQUIRED;
  if (!SHAPE.test(value)) return INVALID_ADDRESS;
  const body = value.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(value) !== value) return EIP55_MISMATCH;
  return null;
}

/** The fee recipient field of the deploy and fee-update contracts; trims, keeps the case given. */
export const evmAddress = z
  .string({ error: ADDRESS_REQUIRED })
  .trim()
  .superRefine((value, ctx) => {
    const message = evmAddressError(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
