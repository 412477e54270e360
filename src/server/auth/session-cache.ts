import type { DB } from '../db/open';
import { readerOf } from '../db/open';
import type { Session, User } from '../db/schema';
import { authEpoch, findLiveSessionWithUser } from './queries';

type Found = { session: Session; user: User };
type Entry = { epoch: number; madeAt: number; found: Found };

/** Resolved sessions one process keeps; beyond this the least recently used goes. */
export const SESSION_CACHE_MAX = 10_000;
/** However quiet the database, an entry is read again after this long. */
export const SESSION_CACHE_MAX_AGE_MS = 10_000;

// Per database: tests (and the CLI) open several in one process.
const caches = new WeakMap<DB, Map<string, Entry>>();

/**
 * The live session and its user for a token hash, as findLiveSessionWithUser answers it,
 * served from memory while nothing that may end a session has been written since the
 * entry was read. `auth_epoch` is moved by triggers (migration 1530), so a write from
 * another process (the `users` CLI) counts too; it is read before the session, so a change
 * that commits between the two leaves the entry under an epoch that is already old.
 * Only databases with a read-only connection (openDatabase) are cached: elsewhere the
 * epoch read would queue behind the writer and gain nothing.
 */
export async function cachedLiveSession(db: DB, tokenHash: string, now: number): Promise<Found | undefined> {
  if (!readerOf(db)) return findLiveSessionWithUser(db, tokenHash, now);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const epoch = await authEpoch(db);
  const hit = cache.get(tokenHash);
  if (hit) {
    cache.delete(tokenHash);
    if (hit.epoch === epoch && now - hit.madeAt < SESSION_CACHE_MAX_AGE_MS && hit.found.session.expires_at > now) {
      cache.set(tokenHash, hit); // most recently used goes last
      return hit.found;
    }
  }
  const found = await findLiveSessionWithUser(db, tokenHash, now);
  // Frozen: every request of this session shares the objects, so none may change them.
  if (found) remember(cache, tokenHash, { epoch, madeAt: now, found: freeze(found) });
  return found;
}

/**
 * After the session's last use was written: the entry keeps its epoch (that write moves no
 * epoch) with the new times, so the next request does not write it again.
 */
export function sessionTouched(db: DB, tokenHash: string, lastUsedAt: number, expiresAt: number): void {
  const cache = caches.get(db);
  const hit = cache?.get(tokenHash);
  if (!cache || !hit) return;
  const session = { ...hit.found.session, last_used_at: lastUsedAt, expires_at: expiresAt };
  cache.set(tokenHash, { ...hit, found: freeze({ user: hit.found.user, session }) });
}

function freeze(found: Found): Found {
  Object.freeze(found.session);
  Object.freeze(found.user);
  return Object.freeze(found);
}

function remember(cache: Map<string, Entry>, key: string, entry: Entry) {
  cache.set(key, entry);
  if (cache.size > SESSION_CACHE_MAX) cache.delete(cache.keys().next().value!);
}
