import type { Context } from '../rpc/context';
import type { DB } from '../db/open';
import type { Session, User } from '../db/schema';
import { insertSessionsEnded } from '../events/outbox';
import { authPorts } from './ports';
import {
  insertSession,
  loginHistory,
  isSessionLive,
  revokeSession,
  revokeSessionsBeyond,
  revokeUserSessions,
  touchSession,
} from './queries';
import { cachedLiveSession, sessionTouched } from './session-cache';
import { hashToken, newToken } from './tokens';

// Writing last-use on every request would make every read a write; once a minute is
// precise enough for "last seen" and keeps the sliding expiry.
const TOUCH_EVERY_MS = 60_000;

/** Live sessions one account may hold; a new login signs out the oldest beyond this. */
export const MAX_SESSIONS_PER_USER = 20;

export async function createSession(
  ctx: Pick<Context, 'db' | 'config' | 'req' | 'hub' | 'mail'>,
  userId: number,
): Promise<string> {
  const token = newToken();
  const now = Date.now();
  const raised = await ctx.db.transaction().execute(async (trx) => {
    // A first login is no news; a login from an address none of the earlier ones came from is.
    const seen = await loginHistory(trx, userId, ctx.req.ip);
    const newIp = seen.any && !seen.fromIp;
    if (newIp) await authPorts().raise(trx, userId, 'login_new_ip', { ip: ctx.req.ip });
    await insertSession(trx, {
      user_id: userId,
      token_hash: hashToken(token),
      ip: ctx.req.ip,
      user_agent: ctx.req.userAgent.slice(0, 512),
      expires_at: now + ctx.config.sessionTtlMs,
    });
    await insertSessionsEnded(trx, userId, await revokeSessionsBeyond(trx, userId, MAX_SESSIONS_PER_USER, now));
    return newIp;
  });
  // The owner hears of a strange login now, not at the mail job's next poll.
  if (raised) authPorts().afterRaise(ctx);
  return token;
}

/**
 * Ends sessions and tells their live subscriptions, in the caller's transaction:
 * one session (`only`), or all of the user's but `keep`.
 */
export async function endSessions(
  trx: DB,
  userId: number,
  which: { only: number } | { keep?: number },
): Promise<number[]> {
  const ids =
    'only' in which ? await revokeSession(trx, which.only) : await revokeUserSessions(trx, userId, which.keep);
  await insertSessionsEnded(trx, userId, ids);
  return ids;
}

type Found = { session: Session; user: User };

/**
 * Each HTTP request's lookup of its token: the call budget asks who pays before the
 * procedure asks who signs in, microseconds apart in one request, so the second is the
 * first's answer (a hash and an epoch read less). Keyed by the request object: gone with it.
 */
const requestLookups = new WeakMap<object, { token: string; found: Promise<Found | undefined> }>();

function lookUp(db: DB, token: string, now: number, request?: object): Promise<Found | undefined> {
  const made = request && requestLookups.get(request);
  if (made && made.token === token) return made.found;
  const found = cachedLiveSession(db, hashToken(token), now);
  if (request) requestLookups.set(request, { token, found });
  return found;
}

/** The live session and its (enabled) user for a bearer token, or null. */
export async function resolveSession(
  ctx: Pick<Context, 'db' | 'config'> & { req?: Pick<Context['req'], 'request'> },
  token: string,
): Promise<Found | null> {
  if (token.length > 200) return null;
  const now = Date.now();
  const found = await lookUp(ctx.db, token, now, ctx.req?.request);
  if (!found || found.user.disabled_at !== null) return null;
  const { session } = found;
  if (now - session.last_used_at > TOUCH_EVERY_MS) {
    const expiresAt = now + ctx.config.sessionTtlMs;
    await touchSession(ctx.db, session.id, now, expiresAt);
    sessionTouched(ctx.db, hashToken(token), now, expiresAt);
  }
  return found;
}

/**
 * The account a session token signs in now, or null; reads only (the call budget asks
 * this for every request before charging it, guards/call-budget.ts).
 */
export async function sessionOwner(db: DB, token: string, request?: object): Promise<number | null> {
  if (token.length > 200) return null;
  const found = await lookUp(db, token, Date.now(), request);
  return found && found.user.disabled_at === null ? found.user.id : null;
}

/** When a live session expires (it slides with use), or null once it has ended. */
export async function liveSessionExpiry(db: DB, sessionId: number): Promise<number | null> {
  return (await isSessionLive(db, sessionId, Date.now()))?.expires_at ?? null;
}
