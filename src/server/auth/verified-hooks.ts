import type { DB } from '../db/open';

/**
 * What other domains do when an account's email becomes verified, in the transaction that
 * verifies it. They register here (they import auth; auth imports none of them, so no
 * cycle): e.g. support lets the account's held conversation into the inbox.
 */
type VerifiedHook = (trx: DB, userId: number) => Promise<void>;

const hooks: VerifiedHook[] = [];

export function onEmailVerified(hook: VerifiedHook): void {
  hooks.push(hook);
}

/** Runs every registered hook; called by each path that sets `verified_at`. */
export async function emailVerified(trx: DB, userId: number): Promise<void> {
  for (const hook of hooks) await hook(trx, userId);
}
