import type { QueuedJobPayload } from '../../shared/jobs';
import type { JobRunner } from '../jobs/runner';

/**
 * A notification job that queues deliveries (a mail, channel messages): retried as mail
 * is, and when `run` says it queued any, the runner looks for them now (the `mail.send`
 * job just queued) rather than at its next poll.
 */
export function handleDeliveryJob<N extends 'notify.mail' | 'notify.quiet_summary'>(
  jobs: JobRunner,
  name: N,
  run: (payload: QueuedJobPayload<N>) => Promise<boolean>,
): void {
  jobs.handle(name, {
    deadlineMs: 30_000,
    maxAttempts: 5,
    backoffMs: 5_000,
    run: async (p) => {
      if (await run(p)) void jobs.poke();
    },
  });
}
