import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
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
  let compiled: Compiled | null = null;
  return async (db, ...args) => {
    const reader = readerOf(db);
    if (!reader) return build(db, ...args).executeTakeFirst();
    compiled ??= compileOnce('hotRead', build, db, args);
    return reader.get(compiled.sql, paramsOf(compiled, args)) as R | undefined;
  };
}

/**
 * A statement a long job runs thousands of times with new arguments (the daily charge's
 * reads and writes of each chunk): built with Kysely once, then each call runs the same
 * SQL text with its arguments through `db`, a transaction's connection included, without
 * Kysely building, visiting and compiling the query again (docs/benchmarks.md, the daily
 * charge). The same rule as `hotRead`: every argument is a bound parameter.
 */
export function compiledQuery<D, A extends unknown[], R>(
  build: (db: Kysely<D>, ...args: A) => Compilable<R>,
): (db: Kysely<D>, ...args: A) => Promise<QueryResult<R>> {
  let compiled: Compiled | null = null;
  return (db, ...args) => {
    compiled ??= compileOnce('compiledQuery', build, db, args);
    return db.executeQuery<R>(CompiledQuery.raw(compiled.sql, paramsOf(compiled, args)));
  };
}

type Compiled = { sql: string; slots: Slot[] };

/** Compiles `build` with a marker object for each argument; the parameters say where each went. */
function compileOnce<D, A extends unknown[]>(
  who: string,
  build: (db: Kysely<D>, ...args: A) => Compilable<unknown>,
  db: Kysely<D>,
  args: A,
): Compiled {
  const markers = args.map(() => ({}));
  const q = build(db, ...(markers as A)).compile();
  const slots = q.parameters.map((p): Slot => {
    const arg = markers.indexOf(p as object);
    return arg >= 0 ? { arg } : { value: p };
  });
  const used = new Set(slots.flatMap((s) => ('arg' in s ? [s.arg] : [])));
  if (used.size !== args.length) throw new Error(`${who}: an argument is not a bound parameter in ${q.sql}`);
  return { sql: q.sql, slots };
}

const paramsOf = (c: Compiled, args: unknown[]) => c.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
