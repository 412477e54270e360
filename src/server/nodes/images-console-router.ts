import { buildImageInput, buildImageOutput, imageRecipes } from '../../shared/schemas/console-images';
import type { ImageBuildsTable } from '../db/schema';
import { operatorProcedure, router } from '../rpc/trpc';
import { lastImageBuilds } from './image-build-queries';
import { listRecipes, requestImageBuild } from './images';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type Row = Omit<ImageBuildsTable, 'id' | 'log_tail'> & { id: number; log_tail: string };
const buildOut = (b: Row) => ({
  id: b.id,
  profile: b.profile,
  host: b.host,
  image: b.image,
  state: b.state,
  log_tail: b.log_tail,
  error: b.error,
  created_at: iso(b.created_at)!,
  finished_at: iso(b.finished_at),
});

/** The Catalog page's image recipes: the services the CLI's `images build` calls, the build queued as a job. */
export const imagesConsoleRouter = router({
  recipes: operatorProcedure.output(imageRecipes).query(async ({ ctx }) => {
    const recipes = listRecipes({ profiles: ctx.fleet.profiles, config: ctx.config });
    const builds = await lastImageBuilds(ctx.db);
    return recipes.map((r) => {
      const last = builds.find((b) => b.profile === r.profile);
      return {
        profile: r.profile,
        image: r.image,
        version: r.version,
        coins: r.coins,
        needs_sha256: r.needsSha256,
        last_build: last ? buildOut(last) : null,
      };
    });
  }),
  build: operatorProcedure
    .input(buildImageInput)
    .output(buildImageOutput)
    .mutation(async ({ ctx, input }) => {
      const build = await requestImageBuild(
        { db: ctx.db, profiles: ctx.fleet.profiles, config: ctx.config },
        ctx.by,
        { profile: input.profile, host: input.host, buildArgs: input.sha256 ? { SHA256: input.sha256 } : {} },
        { queue: true },
      );
      // Committed: the runner takes it now rather than at its next look.
      void ctx.jobs.poke();
      return { success: true as const, build };
    }),
});
