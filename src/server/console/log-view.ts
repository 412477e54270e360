import type { Kysely } from 'kysely';
import type { OperatorLogLine, OperatorLogQuery } from '../../shared/schemas/console';
import type { Database } from '../db/schema';
import { usernameOf } from '../auth/users';
import { listOperatorLog, operatorLogFacets } from '../operator/log';

const DAY_MS = 86_400_000;

function parseDetail(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { text };
  }
}

/** One page of the operator log as the console shows it; the date range is in whole UTC days. */
export async function readOperatorLog(db: Kysely<Database>, q: OperatorLogQuery) {
  const { rows, total } = await listOperatorLog(
    db,
    {
      action: q.action || undefined,
      actorUserId: q.operator_id,
      from: q.from ? Date.parse(`${q.from}T00:00:00Z`) : undefined,
      to: q.to ? Date.parse(`${q.to}T00:00:00Z`) + DAY_MS : undefined,
    },
    q.page,
    q.per_page,
    usernameOf,
  );
  const lines: OperatorLogLine[] = rows.map((r) => ({
    id: r.id,
    at: new Date(r.at).toISOString(),
    action: r.action,
    detail: parseDetail(r.detail),
    actor: r.actor,
    operator: r.actor_user_id !== null ? { id: r.actor_user_id, username: r.username ?? r.actor_name } : null,
    actor_name: r.actor_name,
    address: r.address,
  }));
  return { lines, total, page: q.page, per_page: q.per_page };
}

export const operatorLogFilterChoices = (db: Kysely<Database>) => operatorLogFacets(db, usernameOf);
