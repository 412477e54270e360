import type { Context } from '../rpc/context';
import type { User } from '../db/schema';
import { fail, MESSAGES } from '../kernel/errors';
import { authPorts } from './ports';
import { claimTfaStep, countTfaFailure, tfaState, updateUser } from './queries';
import { matchTotpStep, newTotpSecret } from './totp';

const MAX_WRONG_CODES = 5;
const LOCK_MS = 15 * 60_000;

type Ctx = Pick<Context, 'db' | 'limiter' | 'req' | 'log'>;
type UpdateCtx = Ctx & Pick<Context, 'hub' | 'mail'>;

function lockedOut(lockedUntil: number, now: number): never {
  const minutes = Math.ceil((lockedUntil - now) / 60_000);
  fail(
    'TOO_MANY_REQUESTS',
    `Too many wrong 2FA codes. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * Accepts a TOTP code for the user or throws a message to show. Wrong codes count on
 * the user row; five lock 2FA attempts for 15 minutes, surviving restarts. A code's
 * time step must be newer than the last one used, so no code works twice. Both are
 * decided by conditional updates, never by the row this request read earlier: the
 * login path reads it before the slow password check, and parallel requests would
 * all see it unlocked and unused.
 */
export async function checkTfaCode(ctx: Ctx, user: User, code: string): Promise<void> {
  const now = Date.now();
  if (user.tfa_locked_until > now) lockedOut(user.tfa_locked_until, now);
  if (!ctx.limiter.hit('tfaPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  if (!user.tfa_secret) fail('BAD_REQUEST', 'Two-factor authentication is not set up.');

  const step = matchTotpStep(user.tfa_secret, code, now);
  if (step !== null) {
    // The row has the new step; `user` may be the session cache's shared (frozen) copy.
    if (await claimTfaStep(ctx.db, user.id, step, now)) return;
    // A right code that lost: to the lock, or to a request that used it first. A
    // replay is no guess, so it does not count towards the lock.
    const state = await tfaState(ctx.db, user.id);
    if (state.tfa_locked_until > now) lockedOut(state.tfa_locked_until, now);
    fail('BAD_REQUEST', 'This 2FA code was already used. Please wait for the next code.');
  }
  const counted = await countTfaFailure(ctx.db, user.id, MAX_WRONG_CODES, now, LOCK_MS);
  if (counted === 'already-locked') lockedOut((await tfaState(ctx.db, user.id)).tfa_locked_until, now);
  if (counted === 'locked') ctx.log.warn('2fa locked after wrong codes', { user_id: user.id });
  fail('BAD_REQUEST', 'Invalid 2FA code.');
}

/** `get_tfa`: the secret is created on the first request and shown only while 2FA is off. */
export async function getTfa(ctx: Pick<Context, 'db'>, user: User) {
  let secret = user.tfa_secret;
  if (!secret) {
    secret = newTotpSecret();
    await updateUser(ctx.db, user.id, { tfa_secret: secret });
  }
  const enabled = user.tfa_enabled === 1;
  return { enabled, secret: enabled ? '' : secret };
}

export async function updateTfa(ctx: UpdateCtx, user: User, input: { enable: boolean; code: string }) {
  const enabled = user.tfa_enabled === 1;
  if (input.enable && enabled) fail('BAD_REQUEST', 'Two-factor authentication is already enabled.');
  if (!input.enable && !enabled) fail('BAD_REQUEST', 'Two-factor authentication is not enabled.');
  await checkTfaCode(ctx, user, input.code);
  if (input.enable) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { tfa_enabled: 1 });
      await authPorts().raise(trx, user.id, 'tfa_enabled', {});
    });
    authPorts().afterRaise(ctx);
    ctx.log.info('2fa enabled', { user_id: user.id });
    return { success: true as const, message: 'Two-factor authentication is now enabled.' };
  }
  // A fresh secret next time: a disabled secret may have leaked.
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { tfa_enabled: 0, tfa_secret: null });
    await authPorts().raise(trx, user.id, 'tfa_disabled', {});
  });
  authPorts().afterRaise(ctx);
  ctx.log.info('2fa disabled', { user_id: user.id });
  return { success: true as const, message: 'Two-factor authentication is now disabled.' };
}
