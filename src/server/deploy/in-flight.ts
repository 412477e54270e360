import { fail } from '../kernel/errors';

/**
 * One deploy per user at a time, in this process: a second deploy sent while the first is
 * checked and written (a double click, a script retrying on a slow answer) is refused at
 * once instead of creating a second node. Across processes and after the first finished,
 * the database check for the same coin and entry (`sameDeployExists`) catches a repeat.
 * A keystore upload holds its place until every file's key derivation has ended, so an
 * account never has two uploads in the derivation line (nodes/bounded-queue.ts).
 */
export const DEPLOY_IN_FLIGHT = 'Your previous deploy is still being processed. Please wait a moment and try again.';
export const UPLOAD_IN_FLIGHT = 'Your previous keystore upload is still being checked. Please wait for its answer, then try again.';

export class InFlightGuard {
  /** Each busy user, and what a second deploy of theirs is told meanwhile. */
  private readonly busy = new Map<number, string>();

  async run<T>(userId: number, work: () => Promise<T>, busyMessage = DEPLOY_IN_FLIGHT): Promise<T> {
    const held = this.busy.get(userId);
    if (held !== undefined) fail('CONFLICT', held);
    this.busy.set(userId, busyMessage);
    try {
      return await work();
    } finally {
      this.busy.delete(userId);
    }
  }
}

export const deployGuard = new InFlightGuard();
