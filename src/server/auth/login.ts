import type { LoginOutput } from '../../shared/schemas/auth';
import type { Context } from '../rpc/context';
import type { Session } from '../db/schema';
import { fail, MESSAGES } from '../kernel/errors';
import type { LimitName } from '../guards/rate-limit';
import { issueDeviceToken, knownDevice } from './devices';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { findUserByLogin, userKey } from './queries';
import { createSession, endSessions } from './sessions';
import { checkTfaCode } from './tfa';

const BAD_LOGIN = 'Invalid username or password.';

export async function login(
  ctx: Context,
  input: { username: string; password: string; tfa?: string; device?: string },
): Promise<LoginOutput> {
  const { limiter, req } = ctx;
  if (!limiter.hit('loginPerIp', req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);

  const user = await findUserByLogin(ctx.db, input.username);
  // The slot is taken before the password is checked, so a burst cannot outrun the
  // count. A device that logged in before draws on its own allowance; everyone else
  // shares the one of the name as typed, whether or not it is an account's: a counter
  // shared by an account's username and email would tell which email is whose.
  const device = user ? await knownDevice(ctx.db, user.id, input.device) : null;
  const [bucket, key]: [LimitName, string] = device
    ? ['loginPerDevice', `${user!.id}:${device}`]
    : ['loginPerAccount', `name:${userKey(input.username)}`];
  if (!limiter.hit(bucket, key)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);

  if (!user) {
    await burnPasswordCheck(input.password);
    fail('UNAUTHORIZED', BAD_LOGIN);
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    ctx.log.info('login failed', { user_id: user.id });
    fail('UNAUTHORIZED', BAD_LOGIN);
  }
  // The right password is not a guess: only wrong ones use up the allowance.
  limiter.refund(bucket, key);
  if (user.disabled_at !== null) fail('FORBIDDEN', 'This account has been disabled. Please contact support.');

  if (user.tfa_enabled === 1) {
    // First step: the password was right, now ask for the code (no session yet).
    if (input.tfa === undefined)
      return { success: true, message: 'Please enter your 2FA code.', tfa_authenticated: false };
    await checkTfaCode(ctx, user, input.tfa);
  }
  const auth_token = await createSession(ctx, user.id);
  const device_token = device ? input.device! : await issueDeviceToken(ctx.db, user.id);
  ctx.log.info('login', { user_id: user.id });
  return {
    success: true,
    message: 'Logged in successfully.',
    tfa_authenticated: true,
    auth_token,
    qr_key: user.qr_key,
    device_token,
  };
}

export async function logout(ctx: Context, session: Session) {
  await ctx.db.transaction().execute((trx) => endSessions(trx, session.user_id, { only: session.id }));
  void ctx.hub.poke();
  return { success: true as const };
}
