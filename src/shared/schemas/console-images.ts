import { z } from 'zod';
import { hostName } from './console-fleet';

// The console's Catalog page, image recipes (issue 23): which profiles have a recipe, their
// builds, and starting one on a Docker/Podman host.

export const imageBuildState = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const imageBuild = z.object({
  id: z.number().int(),
  profile: z.string(),
  host: z.string(),
  image: z.string(),
  state: imageBuildState,
  /** The last lines of the build's output. */
  log_tail: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

export const imageRecipe = z.object({
  profile: z.string(),
  image: z.string(),
  version: z.string().nullable(),
  coins: z.array(z.string()),
  /** No pinned checksum: a build needs the release archive's SHA-256. */
  needs_sha256: z.boolean(),
  last_build: imageBuild.nullable(),
});
export const imageRecipes = z.array(imageRecipe);

export const buildImageInput = z
  .object({
    profile: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{1,40}$/, 'must be a daemon profile name'),
    host: hostName,
    sha256: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[0-9a-f]{64}$/, 'must be the 64 hexadecimal digits of the release archive’s SHA-256')
      .optional(),
  })
  .strict();
export const buildImageOutput = z.object({ success: z.literal(true), build: z.number().int() });
