import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../kernel/config';
import type { DB } from '../db/open';
import { AppError, fail } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import { enqueueJob } from '../jobs/queue';
import { bundledCatalogPath } from '../coins/import';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import type { SecretBox } from '../secrets/box';
import type { DaemonProfile } from '../fleet/profiles';
import { buildImage, DockerBuildError, RECIPE_FILE, recipeContext } from '../fleet/engines/docker-build';
import { connectionOf } from './hosts';
import { findHost } from './fleet-queries';
import { findImageBuild, insertImageBuild, moveImageBuild, setImageBuildTail } from './image-build-queries';

/**
 * Image recipes (catalog/images/<profile>/Containerfile) and their builds: the operator
 * names a profile and a Docker/Podman host; the recipe folder goes to the host's build
 * endpoint as a tar and the image comes back tagged as the profile names it. One path for
 * the CLI (which runs the build itself and prints its output) and the console (a queued
 * `images.build` job whose output tail the Catalog page shows): a row of `image_builds`.
 */
export type ImageDeps = {
  db: DB;
  box: Pick<SecretBox, 'open'>;
  log: Logger;
  profiles: Record<string, DaemonProfile>;
  config: Pick<Config, 'imageRecipesDir'>;
};

export type Recipe = {
  profile: string;
  image: string;
  version: string | null;
  coins: string[];
  dir: string;
  /** The recipe has no pinned checksum: the build needs `--build-arg SHA256=…`. */
  needsSha256: boolean;
};

/** Lines of output a build keeps on record (the console shows them). */
const TAIL_LINES = 40;
const ARG_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Printable text on one line: a build argument reaches a shell in the recipe. */
const ARG_VALUE = /^[\x20-\x7e]{0,2000}$/;

export function recipesDir(config: Pick<Config, 'imageRecipesDir'>): string {
  return config.imageRecipesDir ?? bundledCatalogPath('images');
}

function recipeAt(dir: string, id: string, profile: DaemonProfile): Recipe | null {
  if (profile.run !== 'binary' || !profile.image) return null;
  const file = path.join(dir, id, RECIPE_FILE);
  if (!fs.existsSync(file)) return null;
  return {
    profile: id,
    image: profile.image,
    version: profile.version ?? null,
    coins: profile.coins ?? [],
    dir: path.dirname(file),
    // `ARG SHA256` with no default: no citable checksum was found for it.
    needsSha256: /^ARG SHA256[ \t]*$/m.test(fs.readFileSync(file, 'utf8')),
  };
}

/** Every profile that has a recipe, by profile name. */
export function listRecipes(deps: Pick<ImageDeps, 'profiles' | 'config'>): Recipe[] {
  const dir = recipesDir(deps.config);
  return Object.entries(deps.profiles)
    .map(([id, p]) => recipeAt(dir, id, p))
    .filter((r): r is Recipe => r !== null)
    .sort((a, b) => a.profile.localeCompare(b.profile));
}

/** The recipe of `id`, or the refusal that says why there is none. */
export function recipeOf(deps: Pick<ImageDeps, 'profiles' | 'config'>, id: string): Recipe {
  const profile = Object.hasOwn(deps.profiles, id) ? deps.profiles[id] : undefined;
  if (!profile) fail('NOT_FOUND', `No daemon profile named ${id} (see catalog/daemons.json).`, 'profile');
  if (profile.run !== 'binary' || !profile.image)
    fail('BAD_REQUEST', `Profile ${id} runs no container image, so there is nothing to build.`, 'profile');
  const recipe = recipeAt(recipesDir(deps.config), id, profile);
  if (!recipe)
    fail(
      'NOT_FOUND',
      `Profile ${id} has no image recipe (${path.join(recipesDir(deps.config), id, RECIPE_FILE)}); its image ${profile.image} comes from its project.`,
      'profile',
    );
  return recipe;
}

export type BuildInput = { profile: string; host: string; buildArgs?: Record<string, string> };

/**
 * Records a build of `input.profile` on `input.host` (and the operator's line), after
 * checking everything that can be checked here; with `queue` the `images.build` job is
 * queued in the same transaction. Returns the build's id. A refusal changes nothing.
 */
export async function requestImageBuild(
  deps: Pick<ImageDeps, 'db' | 'profiles' | 'config'>,
  by: OperatorActor,
  input: BuildInput,
  opts: { queue: boolean },
): Promise<number> {
  const recipe = recipeOf(deps, input.profile);
  const host = await findHost(deps.db, input.host);
  if (!host) fail('NOT_FOUND', `No host named ${input.host}.`, 'host');
  if (host.engine !== 'docker' || !host.url)
    fail(
      'BAD_REQUEST',
      `Host ${host.name} runs daemons as processes, not containers: images are built on a Docker/Podman host.`,
      'host',
    );
  const given = input.buildArgs ?? {};
  for (const [name, value] of Object.entries(given)) {
    if (!ARG_NAME.test(name))
      fail('BAD_REQUEST', `Build argument ${JSON.stringify(name)} is not a name of A-Z, 0-9 and _.`, 'build_args');
    if (!ARG_VALUE.test(value))
      fail('BAD_REQUEST', `Build argument ${name} must be printable text on one line.`, 'build_args');
    if (name === 'VERSION')
      fail(
        'BAD_REQUEST',
        `VERSION comes from the profile (${recipe.version}): the image is tagged with it.`,
        'build_args',
      );
  }
  if (given.SHA256 !== undefined && !/^[0-9a-f]{64}$/.test(given.SHA256))
    fail('BAD_REQUEST', 'SHA256 must be 64 lowercase hexadecimal digits.', 'build_args');
  // The profile's version, so the tag and what is inside agree.
  const buildArgs = { ...given, ...(recipe.version ? { VERSION: recipe.version } : {}) };
  return deps.db.transaction().execute(async (trx) => {
    const id = await insertImageBuild(trx, {
      profile: recipe.profile,
      host: host.name,
      image: recipe.image,
      build_args: JSON.stringify(buildArgs),
      state: 'queued',
      error: null,
      created_at: Date.now(),
      started_at: null,
      finished_at: null,
    });
    await logOperatorAction(trx, by, 'images build', {
      build: id,
      profile: recipe.profile,
      host: host.name,
      image: recipe.image,
      build_args: buildArgs,
    });
    if (opts.queue) await enqueueJob(trx, 'images.build', { build_id: id }, { key: `images.build:${id}` });
    return id;
  });
}

export type BuildResult = { ok: true; image: string; host: string } | { ok: false; message: string };

/**
 * Runs build `id` (queued): the recipe folder as a tar to the host's build endpoint,
 * each output line to `onLine` and into the row's tail, then the outcome on the row.
 * Null when the build is not queued (another runner has it, or it is done).
 */
export async function runImageBuild(
  deps: ImageDeps,
  id: number,
  onLine: (line: string) => void = () => {},
  signal?: AbortSignal,
): Promise<BuildResult | null> {
  const row = await findImageBuild(deps.db, id);
  if (!row || !(await moveImageBuild(deps.db, id, ['queued'], { state: 'running', started_at: Date.now() })))
    return null;
  const tail: string[] = [];
  let flushed = Promise.resolve();
  let dirty = false;
  // The tail is written at most one write at a time; lines arriving meanwhile ride the next.
  const flush = () => {
    if (dirty) return;
    dirty = true;
    flushed = flushed.then(async () => {
      dirty = false;
      await setImageBuildTail(deps.db, id, tail.join('\n')).catch((err: unknown) =>
        deps.log.warn('image build tail not written', { build: id, err }),
      );
    });
  };
  const finish = async (ok: boolean, error: string | null): Promise<void> => {
    await flushed;
    await moveImageBuild(deps.db, id, ['running'], {
      state: ok ? 'succeeded' : 'failed',
      error,
      log_tail: tail.join('\n'),
      finished_at: Date.now(),
    });
    deps.log.info('image build finished', { build: id, profile: row.profile, host: row.host, ok, error });
  };
  try {
    const recipe = recipeOf(deps, row.profile);
    const host = await findHost(deps.db, row.host);
    if (!host || host.engine !== 'docker' || !host.url) fail('NOT_FOUND', `No Docker/Podman host named ${row.host}.`);
    const outcome = await buildImage(
      { url: host.url, connection: connectionOf(deps.box, host) },
      recipeContext(recipe.dir),
      { tag: row.image, buildArgs: JSON.parse(row.build_args) as Record<string, string>, signal },
      (line) => {
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        flush();
        onLine(line);
      },
    );
    if (!outcome.ok) {
      await finish(false, outcome.message);
      return { ok: false, message: outcome.message };
    }
    await finish(true, null);
    return { ok: true, image: row.image, host: row.host };
  } catch (err) {
    const message =
      err instanceof DockerBuildError || err instanceof AppError
        ? err.message
        : `unexpected: ${(err as Error).message}`;
    if (!(err instanceof DockerBuildError || err instanceof AppError))
      deps.log.error('image build failed', { build: id, err });
    await finish(false, message);
    return { ok: false, message };
  }
}

/** A build whose runner gave up on it (deadline, crash): failed with the reason. */
export async function giveUpImageBuild(db: DB, id: number, reason: string): Promise<void> {
  await moveImageBuild(db, id, ['queued', 'running'], { state: 'failed', error: reason, finished_at: Date.now() });
}
