import { liveSessionExpiry } from '../auth/sessions';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import type { HubEvent } from '../events/hub';
import { SESSIONS_ENDED, type SessionsEndedPayload } from '../events/outbox';

const ENDED = 'Your session has ended. Please log in again.';
// setTimeout cannot wait longer than this.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ties a live subscription to the session that opened it. Revocations arrive as
 * `sessions_ended` events, in order with the user's other events, so nothing
 * published after the revocation is delivered; a session that merely expires is
 * looked up again when its known expiry passes (it slides with use elsewhere).
 */
export class SessionGuard {
  private expiresAt: number;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly db: DB,
    private readonly sessionId: number,
    expiresAt: number,
    /** Told when the session ends (an object, not a closure: one fewer per subscription). */
    private readonly owner: { wakeUp(): void },
  ) {
    this.expiresAt = expiresAt;
  }

  /** Checks the session once more after subscribing (a revocation may have slipped in before). */
  async start(): Promise<void> {
    await this.recheck();
  }

  /**
   * True if `e` is for the client; false for internal events. Throws (ending the
   * subscription) once the session is over.
   */
  async admit(e: Pick<HubEvent, 'event'>): Promise<boolean> {
    if (this.ended) fail('UNAUTHORIZED', ENDED);
    if ((e.event.type as string) === SESSIONS_ENDED) {
      const ids = (e.event.payload as unknown as SessionsEndedPayload).session_ids ?? [];
      if (ids.includes(this.sessionId)) this.end();
      if (this.ended) fail('UNAUTHORIZED', ENDED);
      return false;
    }
    if (Date.now() >= this.expiresAt) await this.recheck();
    if (this.ended) fail('UNAUTHORIZED', ENDED);
    return true;
  }

  /**
   * `admit` without a wait, for the fast path: true or false as `admit` would answer,
   * or null when only `admit` can tell (the session over, a revocation naming it, or
   * its known expiry passed, which needs a look at the database).
   */
  check(e: Pick<HubEvent, 'event'>): boolean | null {
    if (this.ended) return null;
    if ((e.event.type as string) === SESSIONS_ENDED) {
      const ids = (e.event.payload as unknown as SessionsEndedPayload).session_ids ?? [];
      return ids.includes(this.sessionId) ? null : false;
    }
    return Date.now() >= this.expiresAt ? null : true;
  }

  /** Throws once the session is over (for the subscription's idle loop). */
  assertLive(): void {
    if (this.ended) fail('UNAUTHORIZED', ENDED);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private async recheck(): Promise<void> {
    const expiry = await liveSessionExpiry(this.db, this.sessionId);
    if (expiry === null) return this.end();
    this.expiresAt = expiry;
    clearTimeout(this.timer);
    // A failed look (the database busy or closing) ends the stream: the client reconnects
    // and is checked afresh, rather than an unhandled rejection ending the process.
    this.timer = setTimeout(
      () => this.recheck().catch(() => this.end()),
      Math.min(MAX_TIMER_MS, Math.max(0, expiry - Date.now()) + 1000),
    );
    this.timer.unref();
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.owner.wakeUp();
  }
}
