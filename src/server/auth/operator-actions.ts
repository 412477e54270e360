import type { DB } from '../db/open';
import type { User } from '../db/schema';
import { fail } from '../kernel/errors';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import { authPorts } from './ports';
import { sendVerification } from './account';
import { findUserById, updateUser, voidEmailTokens } from './queries';
import { endSessions } from './sessions';

// What the operator does to a customer's account, from the CLI (`users disable|enable|
// reset-2fa|resend-verification`) and the console's Customers page alike. Each change
// and its log line are one transaction; the callers deliver events and mail after it.

async function customer(db: DB, userId: number): Promise<User> {
  const user = await findUserById(db, userId);
  if (!user) fail('NOT_FOUND', `No customer #${userId}.`);
  return user;
}

/** Disables the account and ends all its sessions; false when it was disabled already. */
export async function disableUser(db: DB, by: OperatorActor, userId: number): Promise<boolean> {
  if (by.kind === 'operator' && by.userId === userId) fail('BAD_REQUEST', 'You cannot disable your own account.');
  await customer(db, userId);
  return db.transaction().execute(async (trx) => {
    const user = await customer(trx, userId);
    if (user.disabled_at !== null) return false;
    await updateUser(trx, user.id, { disabled_at: Date.now() });
    await endSessions(trx, user.id, {});
    await logOperatorAction(trx, by, 'users disable', { user_id: user.id, username: user.username });
    return true;
  });
}

/** Lets a disabled account log in again; false when it was not disabled. */
export async function enableUser(db: DB, by: OperatorActor, userId: number): Promise<boolean> {
  await customer(db, userId);
  return db.transaction().execute(async (trx) => {
    const user = await customer(trx, userId);
    if (user.disabled_at === null) return false;
    await updateUser(trx, user.id, { disabled_at: null });
    await logOperatorAction(trx, by, 'users enable', { user_id: user.id, username: user.username });
    return true;
  });
}

/**
 * Turns 2FA off for a customer who lost their authenticator, after the operator checked
 * who is asking: `identityCheck` says how (it is required and kept in the log). The
 * secret is dropped (the next setup makes a new one), the lock is lifted, and the
 * customer is told in-app and by mail, so a reset they did not ask for is noticed.
 */
export async function resetUserTfa(db: DB, by: OperatorActor, userId: number, identityCheck: string): Promise<boolean> {
  const check = identityCheck.trim();
  if (check.length < 10 || check.length > 500)
    fail(
      'BAD_REQUEST',
      'Say how you checked who is asking (10-500 characters); it is kept in the operator log.',
      'identity_check',
    );
  await customer(db, userId);
  return db.transaction().execute(async (trx) => {
    const user = await customer(trx, userId);
    if (user.tfa_enabled !== 1) fail('BAD_REQUEST', `${user.username} does not have two-factor authentication on.`);
    await updateUser(trx, user.id, { tfa_enabled: 0, tfa_secret: null, tfa_failures: 0, tfa_locked_until: 0 });
    await authPorts().raise(trx, user.id, 'tfa_disabled', {});
    await logOperatorAction(trx, by, 'users reset-2fa', {
      user_id: user.id,
      username: user.username,
      identity_check: check,
    });
    return true;
  });
}

/** Sends a fresh verification link (older links stop working). */
export async function resendVerificationFor(
  db: DB,
  by: OperatorActor,
  publicUrl: string,
  userId: number,
): Promise<{ email: string }> {
  await customer(db, userId);
  return db.transaction().execute(async (trx) => {
    const user = await customer(trx, userId);
    if (user.verified_at !== null) fail('BAD_REQUEST', `${user.username}'s email address is already verified.`);
    await voidEmailTokens(trx, user.id, 'verify');
    await sendVerification(trx, { config: { publicUrl } }, user);
    await logOperatorAction(trx, by, 'users resend-verification', { user_id: user.id, username: user.username });
    return { email: user.email };
  });
}
