import { wireAuth } from './auth/ports';
import { deleteUserApiKeys } from './apikeys/queries';
import { wireCoins } from './coins/ports';
import { wireNotifications } from './notifications/ports';
import { chainObservation, hostedCounts, realNodeCounts, userNodes } from './nodes/read';
import { coinReadiness } from './nodes/coin-checks';
import { onEmailVerified } from './auth/verified-hooks';
import { onDepositCredited, onDepositReversed } from './billing/deposit-hooks';
import { accountBalance, userAccount } from './billing/ledger';
import { paySignupCredit } from './billing/signup-credit';
import { depositPriceCoins } from './billing/crypto/queries';
import { listCoins } from './coins/queries';
import { wirePriceTargets } from './market/targets';
import { afterRaise, raise } from './notifications/raise';
import { cancelReferralBonus, holdReferralBonus } from './referrals/bonus';
import { releaseAccountHeld } from './support/service';

/*
 * Where a lower domain lets a higher one act inside its transaction (domains import only
 * the ones below them: operator → auth → … → billing → referrals → … → support). Wired once,
 * when this module loads: router.ts imports it, so every process and test that can call a
 * procedure has it. The order of registration is the order the hooks run in.
 */

wireAuth({
  raise,
  afterRaise,
  balanceOf: (db, userId) => accountBalance(db, userAccount(userId)),
  revokeApiKeys: deleteUserApiKeys,
});

// Coins shows the hosted nodes, and notifications names the muted ones; nodes owns them.
wireCoins({ hostedCounts, realNodeCounts, chainObservation, readiness: coinReadiness });
wireNotifications({ userNodes });

// The sign-up credit first, then the held support conversation (the order they ran in
// when auth called them itself).
onEmailVerified(async (trx, userId, config) => {
  await paySignupCredit(trx, userId, config.signupCreditMicros);
});
onEmailVerified(async (trx, userId) => {
  await releaseAccountHeld(trx, userId);
});

// A first deposit holds the referrer's bonus; a card payment taken back cancels it.
onDepositCredited((trx, d) => holdReferralBonus(trx, d));
onDepositReversed((trx, depositTransferId, reason) => cancelReferralBonus(trx, depositTransferId, reason));

// Market prices the catalog's coins and the currencies deposits are credited in.
wirePriceTargets({ catalogCoins: (db) => listCoins(db), depositPriceIds: (db) => depositPriceCoins(db) });
