import type { Config } from '../kernel/config';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * What other domains do when an account's email becomes verified, in the transaction that
 * verifies it: billing pays the sign-up credit, support lets the account's held
 * conversation into the inbox. Auth imports none of them (no folder cycle): the
 * composition root (src/server/domain-hooks.ts) registers them, in the order they run.
 */
type VerifiedHook = (
  trx: Transaction<Database>,
  userId: number,
  config: Pick<Config, 'signupCreditMicros'>,
) => Promise<void>;

const hooks: VerifiedHook[] = [];

export function onEmailVerified(hook: VerifiedHook): void {
  hooks.push(hook);
}

/** Runs every registered hook; called by each path that sets `verified_at`. */
export async function emailVerified(
  trx: Transaction<Database>,
  userId: number,
  config: Pick<Config, 'signupCreditMicros'>,
): Promise<void> {
  // None registered means domain-hooks.ts was never loaded: the sign-up credit would be skipped silently.
  if (hooks.length === 0) throw new Error('email-verified hooks are not wired (import src/server/domain-hooks.ts)');
  for (const hook of hooks) await hook(trx, userId, config);
}
