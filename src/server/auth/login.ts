import type { LoginOutput } from '../../shared/schemas/auth';
import type { Context } from '../context';
import type { Session } from '../db/schema';
import { fail, MESSAGES } from '../errors';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { findUserByLogin, revokeSession } from './queries';
import { createSession } from './sessions';
import { checkTfaCode } from './tfa';

const BAD_LOGIN = 'Invalid username or password.';

export async function login(ctx: Context, input: { username: string; password: string; tfa?: string }): Promise<LoginOutput> {
  const { limiter, req } = ctx;
  if (!limiter.hit('loginPerIp', req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);

  const user = await findUserByLogin(ctx.db, input.username);
  if (!user) {
    await burnPasswordCheck(input.password);
    fail('UNAUTHORIZED', BAD_LOGIN);
  }
  if (limiter.blocked('loginFailuresPerAccount', user.id)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  if (!(await verifyPassword(user.password_hash, input.password))) {
    limiter.hit('loginFailuresPerAccount', user.id);
    ctx.log.info('login failed', { user_id: user.id, request_id: req.requestId });
    fail('UNAUTHORIZED', BAD_LOGIN);
  }
  if (user.disabled_at !== null) fail('FORBIDDEN', 'This account has been disabled. Please contact support.');

  if (user.tfa_enabled === 1) {
    // First step: the password was right, now ask for the code (no session yet).
    if (input.tfa === undefined) return { success: true, message: 'Please enter your 2FA code.', tfa_authenticated: false };
    await checkTfaCode(ctx, user, input.tfa);
  }
  limiter.reset('loginFailuresPerAccount', user.id);
  const auth_token = await createSession(ctx.db, ctx, user.id);
  ctx.log.info('login', { user_id: user.id, request_id: req.requestId });
  return { success: true, message: 'Logged in successfully.', tfa_authenticated: true, auth_token, qr_key: user.qr_key };
}

export async function logout(ctx: Context, session: Session) {
  await revokeSession(ctx.db, session.id);
  return { success: true as const };
}
