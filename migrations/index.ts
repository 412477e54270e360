import type { Migration } from 'kysely';
import * as initial from './2026-11-22T1000-initial';
import * as coins from './2026-11-22T1400-coins';
import * as fleet from './2026-11-22T1500-fleet';
import * as rolesApiKeys from './2026-11-23T1000-roles-apikeys';
import * as abuse from './2026-11-23T1100-abuse';
import * as jobs from './2026-11-23T1200-jobs';
import * as newuser from './2026-11-23T1300-newuser';
import * as nodeLifecycle from './2026-11-23T1400-node-lifecycle';
import * as notifications from './2026-11-23T1600-notifications';
import * as masternodeKeyMoves from './2026-11-23T1700-masternode-key-moves';
import * as startClaim from './2026-11-23T1800-start-claim';
import * as mailOutboxKey from './2026-11-23T1810-mail-outbox-key';
import * as apikeyUse from './2026-11-23T1900-apikey-use';
import * as alertChannels from './2026-11-23T1910-alert-channels';
import * as alertState from './2026-11-23T1920-alert-state';
import * as channelsHeld from './2026-11-23T1930-channels-held';
import * as ledgerAccounts from './2026-11-23T2000-ledger-accounts';
import * as charges from './2026-11-23T2010-charges';
import * as deposits from './2026-11-23T2020-deposits';
import * as cardSessions from './2026-11-23T2030-card-sessions';
import * as giftCodes from './2026-11-23T2031-gift-codes';
import * as referrerId from './2026-11-23T2040-referrer-id';
import * as nodeCharges from './2026-11-23T2045-node-charges';
import * as operatorLogActor from './2026-11-23T2100-operator-log-actor';
import * as readinessProbe from './2026-11-23T2120-readiness-probe';
import * as metricsIndexes from './2026-11-23T2121-metrics-indexes';
import * as hostDisk from './2026-11-23T2122-host-disk';
import * as hostCredentials from './2026-11-23T2140-host-credentials';
import * as giftCodeRevoke from './2026-11-23T2150-gift-code-revoke';
import * as ledgerKindTime from './2026-11-23T2151-ledger-kind-time';
import * as ledgerLighterPost from './2026-11-23T2300-ledger-lighter-post';
import * as supportChat from './2026-11-23T2310-support-chat';
import * as daemonRollouts from './2026-11-23T2320-daemon-rollouts';
import * as cardReversals from './2026-11-28T0300-card-reversals';
import * as referralBonuses from './2026-11-28T0310-referral-bonuses';
import * as usernameHolds from './2026-11-28T0320-username-holds';
import * as supportChatHeld from './2026-11-28T0350-support-chat-held';
import * as chargeLateAlerts from './2026-11-28T0400-charge-late-alerts';
import * as coinChecks from './2026-11-28T0800-coin-checks';
import * as imageBuilds from './2026-11-28T0830-image-builds';
import * as hostMemory from './2026-11-28T0900-host-memory';
import * as syncProgress from './2026-11-28T0930-sync-progress';
import * as nodeRunningAlert from './2026-11-28T1010-node-running-alert';
import * as validatorExitFiles from './2026-11-28T1030-validator-exit-files';
import * as reminderShort from './2026-11-28T1040-reminder-short';
import * as nodeUptimeEvents from './2026-11-28T1050-node-uptime-events';
import * as nodeRewards from './2026-11-28T1060-node-rewards';
import * as setupTokens from './2026-11-28T1350-setup-tokens';
import * as authEpoch from './2026-11-28T1530-auth-epoch';
import * as campaignBelowRegular from './2026-11-28T1200-campaign-below-regular';

/**
 * The migrations, in order. Listed statically (rather than read from the folder at
 * run time) so the bundled server carries them and vitest needs no loader tricks.
 * Forward-only: never edit or remove an entry, add a new file.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1000-initial': initial,
  '2026-11-22T1400-coins': coins,
  '2026-11-22T1500-fleet': fleet,
  '2026-11-23T1000-roles-apikeys': rolesApiKeys,
  '2026-11-23T1100-abuse': abuse,
  '2026-11-23T1200-jobs': jobs,
  '2026-11-23T1300-newuser': newuser,
  '2026-11-23T1400-node-lifecycle': nodeLifecycle,
  '2026-11-23T1600-notifications': notifications,
  '2026-11-23T1700-masternode-key-moves': masternodeKeyMoves,
  '2026-11-23T1800-start-claim': startClaim,
  '2026-11-23T1810-mail-outbox-key': mailOutboxKey,
  '2026-11-23T1900-apikey-use': apikeyUse,
  '2026-11-23T1910-alert-channels': alertChannels,
  '2026-11-23T1920-alert-state': alertState,
  '2026-11-23T1930-channels-held': channelsHeld,
  '2026-11-23T2000-ledger-accounts': ledgerAccounts,
  '2026-11-23T2010-charges': charges,
  '2026-11-23T2020-deposits': deposits,
  '2026-11-23T2030-card-sessions': cardSessions,
  '2026-11-23T2031-gift-codes': giftCodes,
  '2026-11-23T2040-referrer-id': referrerId,
  '2026-11-23T2045-node-charges': nodeCharges,
  '2026-11-23T2100-operator-log-actor': operatorLogActor,
  '2026-11-23T2120-readiness-probe': readinessProbe,
  '2026-11-23T2121-metrics-indexes': metricsIndexes,
  '2026-11-23T2122-host-disk': hostDisk,
  '2026-11-23T2140-host-credentials': hostCredentials,
  '2026-11-23T2150-gift-code-revoke': giftCodeRevoke,
  '2026-11-23T2151-ledger-kind-time': ledgerKindTime,
  '2026-11-23T2300-ledger-lighter-post': ledgerLighterPost,
  '2026-11-23T2310-support-chat': supportChat,
  '2026-11-23T2320-daemon-rollouts': daemonRollouts,
  '2026-11-28T0300-card-reversals': cardReversals,
  '2026-11-28T0310-referral-bonuses': referralBonuses,
  '2026-11-28T0320-username-holds': usernameHolds,
  '2026-11-28T0350-support-chat-held': supportChatHeld,
  '2026-11-28T0400-charge-late-alerts': chargeLateAlerts,
  '2026-11-28T0800-coin-checks': coinChecks,
  '2026-11-28T0830-image-builds': imageBuilds,
  '2026-11-28T0900-host-memory': hostMemory,
  '2026-11-28T0930-sync-progress': syncProgress,
  '2026-11-28T1010-node-running-alert': nodeRunningAlert,
  '2026-11-28T1030-validator-exit-files': validatorExitFiles,
  '2026-11-28T1040-reminder-short': reminderShort,
  '2026-11-28T1050-node-uptime-events': nodeUptimeEvents,
  '2026-11-28T1060-node-rewards': nodeRewards,
  '2026-11-28T1200-campaign-below-regular': campaignBelowRegular,
  '2026-11-28T1350-setup-tokens': setupTokens,
  '2026-11-28T1530-auth-epoch': authEpoch,
};
