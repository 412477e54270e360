import type { DB } from '../../db/open';
import { fail } from '../../kernel/errors';
import { logOperatorAction, type OperatorActor } from '../../operator/log';
import { findCurrency, setCurrencyEnabled } from './queries';

/**
 * Offers (or stops offering) a deposit currency: CLI `deposits enable|disable` and the
 * console's Money page. Payments to addresses already handed out are still watched and
 * credited while it is off. False when it already was so (nothing logged).
 */
export async function setDepositCurrencyEnabled(
  db: DB,
  by: OperatorActor,
  id: string,
  enabled: boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const c = await findCurrency(trx, id);
    if (!c) fail('NOT_FOUND', `No deposit currency "${id}".`);
    if ((c.enabled === 1) === enabled) return false;
    await setCurrencyEnabled(trx, id, enabled);
    await logOperatorAction(trx, by, enabled ? 'deposits enable' : 'deposits disable', { id });
    return true;
  });
}
