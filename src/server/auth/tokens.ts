import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque token: 32 random bytes, base64url. Shown once, stored only as its hash. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens carry 256 bits of entropy, so a fast unsalted hash is enough to store them. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
