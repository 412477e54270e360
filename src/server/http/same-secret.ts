import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented secret with the expected one in time that depends on neither:
 * both are hashed to 32 bytes first, so even their lengths stay hidden (comparing the
 * raw bytes needs equal lengths, and checking that first tells an attacker the length).
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
