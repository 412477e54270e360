import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A day's low-balance reminder may be followed by one more that day, only to say that
// the balance no longer covers the next charge (which nodes go at 00:00 UTC and what
// keeps them): 1 once that warning was raised for the user's day.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('balance_reminders')
    .addColumn('short', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
