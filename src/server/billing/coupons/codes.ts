import { createHash, randomBytes } from 'node:crypto';

/*
 * Gift code text. A code is 16 characters of Crockford's base32 (no I, L, O, U: nothing
 * to misread), 80 random bits, shown as XXXX-XXXX-XXXX-XXXX. Stored only as the SHA-256
 * of its normalized form: 80 bits cannot be searched from the hash, so a reader of the
 * database cannot redeem a code, and no salt is needed to make the lookup one index read.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 16;

/** A new random code, grouped for reading aloud. */
export function newGiftCode(): string {
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  const chars = [...randomBytes(LENGTH)].map((b) => ALPHABET[b & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** What a typed code is compared as: upper case, without spaces and dashes. Case-insensitive by construction. */
export function normalizeGiftCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]+/g, '');
}

export function giftCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

/** The last four characters, for the operator's list. */
export function giftCodeHint(normalized: string): string {
  return normalized.slice(-4);
}
