import os from 'node:os';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import type { OperatorActor } from '../kernel/actor';

// The type lives in kernel/ (the CLI kit and the procedure builders name it too); the log is here.
export type { OperatorActor };

/** The command line's actor: the OS account that ran it. */
export function cliActor(): OperatorActor {
  let osUser = process.env.USER ?? '';
  try {
    osUser = os.userInfo().username;
  } catch {
    // no passwd entry for this uid (a container): the environment's USER, if any
  }
  return { kind: 'cli', osUser: osUser || 'unknown' };
}

/** The platform acting by itself (`name`: which part, e.g. "daily charge"). */
export function systemActor(name: string): OperatorActor {
  return { kind: 'system', name };
}

/**
 * The one writer of the operator log, for the CLI, the console and the platform's own
 * jobs alike. Call it inside the transaction that makes the change, so the line exists
 * exactly when the change does.
 */
export async function logOperatorAction(
  db: Kysely<Database>,
  by: OperatorActor,
  action: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await db
    .insertInto('operator_log')
    .values({
      action,
      detail: JSON.stringify(detail),
      at: Date.now(),
      actor: by.kind,
      actor_user_id: by.kind === 'operator' ? by.userId : null,
      actor_name: by.kind === 'operator' ? by.username : by.kind === 'cli' ? by.osUser : by.name,
      address: by.kind === 'operator' ? by.ip : by.kind,
    })
    .execute();
}

export type OperatorLogFilter = {
  action?: string;
  /** An operator's user id. */
  actorUserId?: number;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
};

/**
 * An operator's username from their user id (a column name), as a subquery: auth owns the
 * users table and sits above operator/, so the caller hands in auth's `usernameOf`.
 */
export type NameOf = (idColumn: string) => RawBuilder<string | null>;

/** One page of the log, newest first, and how many lines match in all. */
export async function listOperatorLog(
  db: Kysely<Database>,
  filter: OperatorLogFilter,
  page: number,
  perPage: number,
  nameOf: NameOf,
) {
  let q = db.selectFrom('operator_log');
  if (filter.action !== undefined) q = q.where('operator_log.action', '=', filter.action);
  if (filter.actorUserId !== undefined) q = q.where('operator_log.actor_user_id', '=', filter.actorUserId);
  if (filter.from !== undefined) q = q.where('operator_log.at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('operator_log.at', '<', filter.to);
  const [rows, total] = await Promise.all([
    q
      .select([
        'operator_log.id',
        'operator_log.action',
        'operator_log.detail',
        'operator_log.at',
        'operator_log.actor',
        'operator_log.actor_user_id',
        'operator_log.actor_name',
        'operator_log.address',
        nameOf('operator_log.actor_user_id').as('username'),
      ])
      .orderBy('operator_log.at', 'desc')
      .orderBy('operator_log.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The distinct actions and the operators that appear in the log: the console's filter choices. */
export async function operatorLogFacets(db: Kysely<Database>, nameOf: NameOf) {
  const [actions, operators] = await Promise.all([
    db.selectFrom('operator_log').select('action').distinct().orderBy('action').execute(),
    db
      .selectFrom('operator_log')
      .select([sql<number>`actor_user_id`.as('id'), sql<string>`${nameOf('actor_user_id')}`.as('username')])
      .where('actor_user_id', 'is not', null)
      .where(nameOf('actor_user_id'), 'is not', null)
      .distinct()
      .orderBy('username')
      .execute(),
  ]);
  return { actions: actions.map((a) => a.action), operators };
}
