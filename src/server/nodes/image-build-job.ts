import type { JobRunner } from '../jobs/runner';
import { giveUpImageBuild, runImageBuild, type ImageDeps } from './images';

/**
 * The console's image builds run here, outside the request: the Catalog page asked for
 * one (`console.images.build`), which recorded it and queued this job; the page follows
 * the row's state and output tail. A build is tried once: a failed step fails the same
 * way again, and the operator reads why and decides.
 */
export function handleImageBuilds(jobs: JobRunner, deps: ImageDeps): void {
  jobs.handle('images.build', {
    // A release archive downloaded and unpacked on a slow host, plus the base image.
    deadlineMs: 30 * 60_000,
    maxAttempts: 1,
    backoffMs: 60_000,
    run: async (p, ctx) => {
      await runImageBuild(deps, p.build_id, undefined, ctx.signal);
    },
    onGiveUp: (p, error) => giveUpImageBuild(deps.db, p.build_id, error),
  });
}
