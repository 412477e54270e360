import { SqliteError } from 'better-sqlite3';
import type { z } from 'zod';
import type { setupInput, SetupStatus } from '../../shared/schemas/setup';
import type { Context } from '../rpc/context';
import type { DB } from '../db/open';
import type { Logger } from '../kernel/log';
import { fail, MESSAGES } from '../kernel/errors';
import { logOperatorAction } from '../operator/log';
import { sendVerification } from './account';
import { hashPassword } from './passwords';
import {
  anyOperator,
  consumeSetupToken,
  deleteSetupTokens,
  findSetupToken,
  findUserById,
  hasLiveSetupToken,
  insertSetupToken,
  insertUser,
  updateUser,
  usernameOrEmailTaken,
} from './queries';
import { createSession } from './sessions';
import { hashToken, newToken } from './tokens';
import { matchTotpStep, newTotpSecret } from './totp';

/** How long a first-run link works. */
export const SETUP_TTL_MS = 60 * 60_000;

const DONE = 'Setup is done: the operator account exists. Log in to open the console.';
const EXPIRED =
  "This setup link has expired. A new one is printed in the server's log (journalctl -u nodekeep, or the terminal running it).";
const INVALID = "This setup link is not valid. Use the newest link printed in the server's log.";
const USED = 'This setup link was already used.';

type Ctx = Pick<Context, 'db' | 'config' | 'log'>;

/** The page's address for a token, under PUBLIC_URL (`base`). */
export function setupUrl(base: string, token: string): string {
  return `${base}/setup/${token}`;
}

/**
 * Makes a new first-run link and prints it, unless an operator exists (then every link
 * goes). Only the token's hash is kept, so a link cannot be printed twice: each start
 * makes a new one and voids the older, and the page makes one when the last has expired.
 * Logged at warn so a quieter LOG_LEVEL still shows it.
 */
export async function openSetupLink(db: DB, base: string, log: Logger): Promise<string | null> {
  const token = newToken();
  const now = Date.now();
  const made = await db.transaction().execute(async (trx) => {
    await deleteSetupTokens(trx);
    if (await anyOperator(trx)) return false;
    await insertSetupToken(trx, {
      token_hash: hashToken(token),
      tfa_secret: newTotpSecret(),
      created_at: now,
      expires_at: now + SETUP_TTL_MS,
    });
    return true;
  });
  if (!made) return null;
  const url = setupUrl(base, token);
  log.warn('no operator account yet: open this link within an hour to create it', {
    setup_url: url,
    expires: new Date(now + SETUP_TTL_MS).toISOString(),
  });
  return url;
}

/** Where a link stands, and the authenticator secret to enrol while it is open. */
export async function setupStatus(ctx: Ctx & Pick<Context, 'limiter' | 'req'>, token: string): Promise<SetupStatus> {
  if (!ctx.limiter.hit('verifyPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  if (await anyOperator(ctx.db)) return { state: 'done', message: DONE };
  const row = await findSetupToken(ctx.db, hashToken(token));
  if (!row) return { state: 'invalid', message: INVALID };
  const now = Date.now();
  if (row.expires_at > now) return { state: 'open', secret: row.tfa_secret };
  // The hour is over and nobody has a working link: the next one goes to the log now.
  if (!(await hasLiveSetupToken(ctx.db, now))) await openSetupLink(ctx.db, ctx.config.publicUrl, ctx.log);
  return { state: 'expired', message: EXPIRED };
}

/**
 * Creates the first operator account, with 2FA already on (the code proves the
 * authenticator holds the link's secret), and signs it in. One transaction takes the
 * token and makes the account, so of any number of parallel uses exactly one succeeds.
 */
export async function completeSetup(ctx: Context, input: z.output<typeof setupInput>) {
  if (!ctx.limiter.hit('tfaPerIp', ctx.req.ip)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  const tokenHash = hashToken(input.token);
  if (await anyOperator(ctx.db)) fail('CONFLICT', DONE);
  const row = await findSetupToken(ctx.db, tokenHash);
  if (!row) fail('NOT_FOUND', INVALID);
  const now = Date.now();
  if (row.expires_at <= now) fail('BAD_REQUEST', EXPIRED);
  const step = matchTotpStep(row.tfa_secret, input.code, now);
  if (step === null)
    fail('BAD_REQUEST', 'Invalid 2FA code. Enter the code your authenticator app shows for this key now.');

  // Slow (argon2), so outside the transaction: SQLite has one writer.
  const password_hash = await hashPassword(input.password);
  let userId: number;
  try {
    userId = await ctx.db.transaction().execute(async (trx) => {
      if (await anyOperator(trx)) fail('CONFLICT', DONE);
      if (!(await consumeSetupToken(trx, tokenHash, now))) fail('CONFLICT', USED);
      const taken = await usernameOrEmailTaken(trx, input.username, input.email);
      if (taken.username) fail('CONFLICT', 'This username is already taken.');
      if (taken.email) fail('CONFLICT', 'An account with this email exists. Use another email.');
      const id = await insertUser(trx, {
        username: input.username,
        email: input.email,
        password_hash,
        referrer: null,
        referrer_id: null,
        room_id: newToken(16),
        qr_key: newToken(16),
        registered_ip: ctx.req.ip,
      });
      // The code just checked is used: it cannot log in a second time.
      await updateUser(trx, id, {
        role: 'operator',
        tfa_secret: row.tfa_secret,
        tfa_enabled: 1,
        tfa_last_step: step,
      });
      await deleteSetupTokens(trx);
      await sendVerification(trx, ctx, { id, email: input.email, username: input.username });
      await logOperatorAction(
        trx,
        { kind: 'operator', userId: id, username: input.username, ip: ctx.req.ip },
        'setup',
        { user_id: id, username: input.username },
      );
      return id;
    });
  } catch (err) {
    // A customer registering the same name or address at this moment: the unique index decides.
    if (err instanceof SqliteError && err.code === 'SQLITE_CONSTRAINT_UNIQUE')
      fail('CONFLICT', 'This username or email was taken a moment ago. Please choose another.');
    throw err;
  }
  void ctx.mail.kick();
  const auth_token = await createSession(ctx, userId);
  const user = (await findUserById(ctx.db, userId))!;
  ctx.log.info('first operator created', { user_id: userId });
  return {
    success: true as const,
    message: 'Your operator account is ready, with two-factor authentication on.',
    auth_token,
    qr_key: user.qr_key,
  };
}
