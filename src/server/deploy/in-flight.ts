import { fail } from '../errors';

/**
 * One deploy per user at a time, in this process: a second deploy sent while the first is
 * checked and written (a double click, a script retrying on a slow answer) is refused at
 * once instead of creating a second node. Across processes and after the first finished,
 * the database check for the same coin and entry (`sameDeployExists`) catches a repeat.
 */
export const DEPLOY_IN_FLIGHT = 'Your previous deploy is still being processed. Please wait a moment and try again.';

export class InFlightGuard {
  private readonly busy = new Set<number>();

  async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
    if (this.busy.has(userId)) fail('CONFLICT', DEPLOY_IN_FLIGHT);
    this.busy.add(userId);
    try {
      return await work();
    } finally {
      this.busy.delete(userId);
    }
  }
}

export const deployGuard = new InFlightGuard();
