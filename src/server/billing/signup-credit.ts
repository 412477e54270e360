import type { Micros } from '../../shared/money';
import { PLATFORM, postTransfer, userAccount, type MoneyTx } from './ledger';

/**
 * The operator's sign-up credit (SIGNUP_CREDIT_USD), paid once per user, in the
 * transaction that verifies the email (src/server/billing/README.md): an ordinary
 * transfer from the platform's expense account, keyed by the user.
 */
export async function paySignupCredit(trx: MoneyTx, userId: number, amount: Micros): Promise<boolean> {
  if (amount <= 0) return false;
  return postTransfer(trx, {
    idempotencyKey: `signup-credit:${userId}`,
    debit: PLATFORM.signupCredit,
    credit: userAccount(userId),
    amount,
    kind: 'signup_credit',
    description: 'Sign-up credit',
  });
}
