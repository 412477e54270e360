import { SqliteError } from 'better-sqlite3';
import type { Context } from '../rpc/context';
import type { DB } from '../db/open';
import type { User } from '../db/schema';
import { fail, MESSAGES } from '../kernel/errors';
import { enqueueMail } from '../mail/outbox';
import { accountExistsMail, resetMail, verificationMail } from '../mail/templates';
import { authPorts } from './ports';
import { hashPassword, verifyPassword } from './passwords';
import {
  consumeEmailToken,
  findUsableEmailToken,
  findUserByEmail,
  findUserById,
  findUserIdByUsername,
  holdUsername,
  insertEmailToken,
  insertUser,
  updateUser,
  userKey,
  usernameOrEmailTaken,
  voidEmailTokens,
} from './queries';
import { endSessions } from './sessions';
import { hashToken, newToken } from './tokens';
import { emailVerified } from './verified-hooks';
import { isSignupOpen, SIGNUP_CLOSED } from '../operator/platform';

const VERIFY_TTL_MS = 7 * 86_400_000;
/**
 * How long a registration that created no account (its email had one) holds its username:
 * as long as a new registration's verification link lives, so the name answers "taken"
 * meanwhile whatever the email's state. Housekeeping deletes the hold afterwards.
 */
export const USERNAME_HOLD_MS = VERIFY_TTL_MS;
const RESET_TTL_MS = 60 * 60_000;
export const RECOVER_MESSAGE = 'If an account exists for that email, we have sent a link to reset its password.';

/** Creates a verification token and queues its mail, in the caller's transaction. */
export async function sendVerification(
  trx: DB,
  ctx: { config: Pick<Context['config'], 'publicUrl'> },
  user: { id: number; email: string; username: string },
) {
  const token = newToken();
  await insertEmailToken(trx, {
    user_id: user.id,
    kind: 'verify',
    token_hash: hashToken(token),
    expires_at: Date.now() + VERIFY_TTL_MS,
  });
  await enqueueMail(trx, verificationMail(user.email, user.username, `${ctx.config.publicUrl}/verify?h=${token}`));
}

const REGISTERED = 'Registration successful! Please confirm your email through the link we sent you.';
const NAME_TAKEN = 'This username is already taken.';

/**
 * A taken username may be said (names are public on referral links anyway); a taken
 * email may not: the answer is the one a new account gets, and the address's owner
 * gets a mail instead, so only the mailbox's owner learns the account exists. Such a
 * registration still holds its username (USERNAME_HOLD_MS), as a new account would:
 * registering the name again says "taken" in both cases, so the second answer does not
 * tell either (src/server/auth/README.md).
 */
export async function register(
  ctx: Context,
  input: { username: string; email: string; password: string; referrer?: string | null },
) {
  if (!ctx.limiter.hit('registerPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  // The operator closed sign-up (console Settings, or `signup closed`).
  if (!(await isSignupOpen(ctx.db))) fail('FORBIDDEN', SIGNUP_CLOSED);
  const taken = await usernameOrEmailTaken(ctx.db, input.username, input.email);
  if (taken.username) fail('CONFLICT', NAME_TAKEN);

  // Hashed either way, so both answers take as long.
  const password_hash = await hashPassword(input.password);
  if (taken.email) return holdForOwner(ctx, input);
  const referrer = input.referrer?.trim() || null;
  let userId: number;
  try {
    userId = await ctx.db.transaction().execute(async (trx) => {
      // A hold taken since the check above (a racing registration with a taken email) wins, as an account would.
      if ((await usernameOrEmailTaken(trx, input.username, input.email)).username) fail('CONFLICT', NAME_TAKEN);
      const id = await insertUser(trx, {
        username: input.username,
        email: input.email,
        password_hash,
        referrer,
        // Resolved once, here: a code naming nobody refers nobody, now or later (src/server/referrals/README.md).
        referrer_id: referrer ? await findUserIdByUsername(trx, referrer) : null,
        room_id: newToken(16),
        qr_key: newToken(16),
        // Kept for the referral bonus's shared-address check (referrals/bonus.ts).
        registered_ip: ctx.req.ip,
      });
      await sendVerification(trx, ctx, { id, email: input.email, username: input.username });
      return id;
    });
  } catch (err) {
    // Two registrations racing for one name or address: the unique index decides.
    if (!(err instanceof SqliteError && err.code === 'SQLITE_CONSTRAINT_UNIQUE')) throw err;
    if ((await usernameOrEmailTaken(ctx.db, input.username, input.email)).username) fail('CONFLICT', NAME_TAKEN);
    return holdForOwner(ctx, input);
  }
  void ctx.mail.kick();
  ctx.log.info('user registered', { user_id: userId });
  return { success: true as const, message: REGISTERED };
}

/**
 * The taken-email branch: holds the username and mails the address's owner, in one
 * transaction (one write, like the new account's branch). The name is checked again
 * inside it: an account or hold that took it meanwhile gets the answer it would get then.
 */
async function holdForOwner(ctx: Context, input: { username: string; email: string }) {
  const owner = await findUserByEmail(ctx.db, input.email);
  const notify =
    owner !== undefined && owner.disabled_at === null && ctx.limiter.hit('registerNoticePerAccount', owner.id);
  const base = ctx.config.publicUrl;
  await ctx.db.transaction().execute(async (trx) => {
    if ((await usernameOrEmailTaken(trx, input.username, input.email)).username) fail('CONFLICT', NAME_TAKEN);
    await holdUsername(trx, input.username, Date.now() + USERNAME_HOLD_MS);
    // A mail is a row and its job: in the transaction, so neither exists without the other.
    if (notify)
      await enqueueMail(trx, accountExistsMail(owner.email, owner.username, `${base}/login`, `${base}/recover`));
  });
  if (notify) void ctx.mail.kick();
  return { success: true as const, message: REGISTERED };
}

export async function verifyEmail(ctx: Context, hash: string) {
  if (!ctx.limiter.hit('verifyPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  const ok = await ctx.db.transaction().execute(async (trx) => {
    const token = await findUsableEmailToken(trx, 'verify', hashToken(hash), Date.now());
    if (!token || !(await consumeEmailToken(trx, token.id))) return false;
    await updateUser(trx, token.user_id, { verified_at: Date.now() });
    await emailVerified(trx, token.user_id, ctx.config);
    return true;
  });
  // Hooks may have raised notices (support tells the operators of a released conversation).
  if (ok) authPorts().afterRaise(ctx);
  if (!ok) fail('BAD_REQUEST', 'This verification link is invalid, expired or has already been used.');
  return { success: true as const, message: 'Successfully verified!' };
}

export async function resendVerification(ctx: Context, user: User) {
  if (user.verified_at !== null) fail('BAD_REQUEST', 'Your email address is already verified.');
  if (!ctx.limiter.hit('resendPerAccount', user.id))
    fail('TOO_MANY_REQUESTS', 'Too many verification emails. Please wait an hour and try again.');
  await ctx.db.transaction().execute(async (trx) => {
    await voidEmailTokens(trx, user.id, 'verify');
    await sendVerification(trx, ctx, user);
  });
  void ctx.mail.kick();
  return { success: true as const, message: `We sent a new verification email to ${user.email}.` };
}

export async function recover(ctx: Context, email: string) {
  // Same answer, same work on the request path, whether or not the account exists.
  if (!ctx.limiter.hit('recoverPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  // Taken by address before the lookup, known or not, so it says nothing either way.
  const allowed = ctx.limiter.hit('recoverPerAccount', userKey(email));
  const user = await findUserByEmail(ctx.db, email);
  if (user && user.disabled_at === null && allowed) {
    const token = newToken();
    await ctx.db.transaction().execute(async (trx) => {
      await voidEmailTokens(trx, user.id, 'reset');
      await insertEmailToken(trx, {
        user_id: user.id,
        kind: 'reset',
        token_hash: hashToken(token),
        expires_at: Date.now() + RESET_TTL_MS,
      });
      await enqueueMail(trx, resetMail(user.email, user.username, `${ctx.config.publicUrl}/reset?token=${token}`));
    });
    void ctx.mail.kick();
  }
  return { success: true as const, message: RECOVER_MESSAGE };
}

const BAD_RESET = 'This password reset link is invalid or has expired. Please request a new one.';

export async function checkResetToken(ctx: Context, token: string) {
  if (!ctx.limiter.hit('verifyPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  const row = await findUsableEmailToken(ctx.db, 'reset', hashToken(token), Date.now());
  if (!row) fail('BAD_REQUEST', BAD_RESET);
  return { success: true as const };
}

export async function resetPassword(ctx: Context, input: { token: string; password: string }) {
  if (!ctx.limiter.hit('verifyPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  const row = await findUsableEmailToken(ctx.db, 'reset', hashToken(input.token), Date.now());
  if (!row) fail('BAD_REQUEST', BAD_RESET);
  const password_hash = await hashPassword(input.password);
  const done = await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeEmailToken(trx, row.id))) return false;
    const user = await findUserById(trx, row.user_id);
    // Following the mailed link proves the address, so it counts as verified too.
    await updateUser(trx, row.user_id, { password_hash, verified_at: user?.verified_at ?? Date.now() });
    if (user && user.verified_at === null) {
      await emailVerified(trx, row.user_id, ctx.config);
    }
    await endSessions(trx, row.user_id, {});
    // A reset is how an owner takes a stolen account back: whoever held it may have made
    // keys, and keys outlive sessions. A password change (made knowing the password, from a
    // signed-in session, on the page that lists the keys) leaves them.
    return { revoked: await authPorts().revokeApiKeys(trx, row.user_id) };
  });
  if (!done) fail('BAD_REQUEST', BAD_RESET);
  authPorts().afterRaise(ctx);
  ctx.log.info('password reset', { user_id: row.user_id, api_keys_revoked: done.revoked });
  return {
    success: true as const,
    message:
      done.revoked > 0
        ? 'Your password has been changed and your API keys were revoked (make new ones on the API page). You can now log in.'
        : 'Your password has been changed. You can now log in.',
  };
}

export async function changePassword(
  ctx: Context,
  user: User,
  sessionId: number,
  input: { current_password: string; new_password: string },
) {
  // Taken before the check, handed back when it was right (as for login): a session
  // thief cannot use this form to guess faster than the limit, however many at once.
  if (!ctx.limiter.hit('changePasswordPerAccount', user.id)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  if (!(await verifyPassword(user.password_hash, input.current_password)))
    fail('BAD_REQUEST', 'Your current password is incorrect.');
  ctx.limiter.refund('changePasswordPerAccount', user.id);
  const password_hash = await hashPassword(input.new_password);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { password_hash });
    await endSessions(trx, user.id, { keep: sessionId });
    await voidEmailTokens(trx, user.id, 'reset');
    await authPorts().raise(trx, user.id, 'password_changed', {});
  });
  void ctx.mail.kick();
  void ctx.hub.poke();
  ctx.log.info('password changed', { user_id: user.id });
  return { success: true as const, message: 'Your password has been changed. Your other sessions were signed out.' };
}
