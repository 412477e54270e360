import { checkDepositDaemons } from '../billing/crypto/daemon-check';
import type { DB } from '../db/open';
import type { SecretBox } from '../secrets/box';
import type { CheckResult } from './doctor-result';

/** One line per deposit currency: its daemon's RPC and the wallet the watcher reads (billing checks them). */
export async function checkDeposits(db: DB, box: Pick<SecretBox, 'open'>, timeoutMs?: number): Promise<CheckResult[]> {
  const checks = await checkDepositDaemons(db, box, timeoutMs);
  return checks.map((c) => ({ name: `deposits ${c.currency}`, ok: c.ok, detail: c.detail, advice: c.advice }));
}
