import type { Micros } from '../../shared/money';
import type { NotificationKind, NotificationParams } from '../../shared/notification-kinds';
import type { DB } from '../db/open';
import type { Context } from '../rpc/context';

/**
 * What auth needs from the domains above it (notifications raise its security notices,
 * billing keeps the balance shown with the account, apikeys' keys go with a password
 * reset). Auth imports none of them, so no folder cycle: the composition root
 * (src/server/domain-hooks.ts) hands them in once, at load.
 */
export type AuthPorts = {
  /** notifications' `raise`: in the caller's transaction. */
  raise<K extends NotificationKind>(db: DB, userId: number, kind: K, params: NotificationParams<K>): Promise<void>;
  /** notifications' `afterRaise`: after the commit of a transaction that raised. */
  afterRaise(ctx: Pick<Context, 'hub' | 'mail'>): void;
  /** billing's balance of the user's account. */
  balanceOf(db: DB, userId: number): Promise<Micros>;
  /** apikeys': deletes every API key of the user, in the caller's transaction; how many. */
  revokeApiKeys(db: DB, userId: number): Promise<number>;
};

let ports: AuthPorts | null = null;

export function wireAuth(p: AuthPorts): void {
  ports = p;
}

/** The handed-in ports; a process that forgot to wire them fails loudly, never drops a notice. */
export function authPorts(): AuthPorts {
  if (!ports) throw new Error('auth ports are not wired (import src/server/domain-hooks.ts)');
  return ports;
}
