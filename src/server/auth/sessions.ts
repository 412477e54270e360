import type { Context } from '../context';
import type { DB } from '../db/open';
import type { Session, User } from '../db/schema';
import { findLiveSessionWithUser, insertSession, touchSession } from './queries';
import { hashToken, newToken } from './tokens';

// Writing last-use on every request would make every read a write; once a minute is
// precise enough for "last seen" and keeps the sliding expiry.
const TOUCH_EVERY_MS = 60_000;

export async function createSession(db: DB, ctx: Pick<Context, 'config' | 'req'>, userId: number): Promise<string> {
  const token = newToken();
  await insertSession(db, {
    user_id: userId,
    token_hash: hashToken(token),
    ip: ctx.req.ip,
    user_agent: ctx.req.userAgent.slice(0, 512),
    expires_at: Date.now() + ctx.config.sessionTtlMs,
  });
  return token;
}

/** The live session and its (enabled) user for a bearer token, or null. */
export async function resolveSession(ctx: Pick<Context, 'db' | 'config'>, token: string): Promise<{ session: Session; user: User } | null> {
  if (token.length > 200) return null;
  const now = Date.now();
  const found = await findLiveSessionWithUser(ctx.db, hashToken(token), now);
  if (!found || found.user.disabled_at !== null) return null;
  const { session } = found;
  if (now - session.last_used_at > TOUCH_EVERY_MS) await touchSession(ctx.db, session.id, now, now + ctx.config.sessionTtlMs);
  return found;
}
