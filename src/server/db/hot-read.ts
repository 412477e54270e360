import type { Compilable, Kysely } from 'kysely';
import { readerOf } from './open';

type Slot = { arg: number } | { value: unknown };

/**
 * A read that every request makes (the session, the balance, a setting), built with
 * Kysely as usual but compiled once: later calls run the same SQL text as a prepared
 * statement on the read-only connection (open.ts `readerOf`), skipping Kysely's query
 * building (about 8% of get_common_info's CPU, docs/benchmarks.md) and the writer's queue.
 * A transaction (or a database not opened by openDatabase) runs the Kysely query itself,
 * so a read inside a transaction still sees that transaction's writes.
 *
 * `build` must give the same SQL text for any arguments: each argument is a bound
 * parameter (no `in` lists, no optional clauses).
 */
export function hotRead<D, A extends unknown[], R>(
  build: (db: Kysely<D>, ...args: A) => Compilable<R> & { executeTakeFirst(): Promise<R | undefined> },
): (db: Kysely<D>, ...args: A) => Promise<R | undefined> {
  let compiled: { sql: string; slots: Slot[] } | null = null;
  return async (db, ...args) => {
    const reader = readerOf(db);
    if (!reader) return build(db, ...args).executeTakeFirst();
    if (!compiled) {
      // Each argument is replaced by a marker object; the compiled parameters say where each went.
      const markers = args.map(() => ({}));
      const q = build(db, ...(markers as A)).compile();
      compiled = {
        sql: q.sql,
        slots: q.parameters.map((p) => {
          const arg = markers.indexOf(p as object);
          return arg >= 0 ? { arg } : { value: p };
        }),
      };
      const used = new Set(compiled.slots.flatMap((s) => ('arg' in s ? [s.arg] : [])));
      if (used.size !== args.length) throw new Error(`hotRead: an argument is not a bound parameter in ${q.sql}`);
    }
    const params = compiled.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    return reader.get(compiled.sql, params) as R | undefined;
  };
}
