import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/open';
import type { ImageBuildsTable } from '../db/schema';

/** The builds a profile keeps on record (the newest); older ones go when a new one is asked for. */
const KEEP_PER_PROFILE = 10;

export async function insertImageBuild(db: DB, row: Insertable<ImageBuildsTable>): Promise<number> {
  const r = await db.insertInto('image_builds').values(row).returning('id').executeTakeFirstOrThrow();
  await db
    .deleteFrom('image_builds')
    .where('profile', '=', row.profile)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('image_builds')
        .select('id')
        .where('profile', '=', row.profile)
        .orderBy('id', 'desc')
        .limit(KEEP_PER_PROFILE),
    )
    .execute();
  return r.id;
}

export function findImageBuild(db: DB, id: number) {
  return db.selectFrom('image_builds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Moves a build from `from` to its next state; false when it was not in `from` (another runner has it). */
export async function moveImageBuild(
  db: DB,
  id: number,
  from: ImageBuildsTable['state'][],
  patch: Updateable<ImageBuildsTable>,
): Promise<boolean> {
  const r = await db
    .updateTable('image_builds')
    .set(patch)
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setImageBuildTail(db: DB, id: number, tail: string): Promise<void> {
  await db.updateTable('image_builds').set({ log_tail: tail }).where('id', '=', id).execute();
}

/** Each profile's newest build. */
export function lastImageBuilds(db: DB) {
  return db
    .selectFrom('image_builds')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('image_builds')
        .select((e) => e.fn.max('id').as('id'))
        .groupBy('profile'),
    )
    .execute();
}
