import { z } from 'zod';
import { syncProgress } from '../sync-progress';
import { messageResponse } from './common';
import { LIFECYCLE_STATES } from '../lifecycle';
import { ALIAS_MAX, ALIAS_PATTERN } from '../node-alias';
import { NODE_EVENT_KINDS } from '../node-maintenance';

export const mnQuery = z
  .object({ masternode: z.string().trim().min(1, 'is required').max(80, 'is too long') })
  .strict();

const currencyData = z.object({ id: z.string(), label: z.string(), ticker: z.string() });
const money = z.union([z.number(), z.literal('--')]);

/** Masternode (list) of platform-and-account.md section 3. */
export const masternodeListItem = z.object({
  mn_id: z.string(),
  alias: z.string().nullable(),
  currency: z.string(),
  currency_data: currencyData,
  /** Logo URL of the coin (COIN_LOGO_URL base). */
  logo: z.string(),
  status: z.string(),
  status_on_network: z.string().nullable(),
  /** Seconds the node has been running, or null. */
  active_time: z.number().nullable(),
  /** ISO time of the last reward, or null. */
  last_paid: z.string().nullable(),
  /** USD: collateral × price, '--' without a price. */
  worth: money,
  /** USD per month for this node, '--' without a price. */
  revenue: money,
  create_date: z.string(),
  output_text: z.string(),
  /**
   * The command that starts the node from the owner's wallet (start-alias, protx, register…),
   * every value in it filled; '' when there is none, or when values are still missing.
   */
  start_cmd: z.string(),
  /**
   * The values the start command still needs, in words ("owner address", "voting address",
   * "node address"): the owner's own, or the node's before the platform has them. Empty
   * when `start_cmd` is complete or the node has no start command.
   */
  start_cmd_missing: z.array(z.string()),
  payee: z.string(),
  front_options: z.object({ validator_evm: z.boolean() }),
  dip003: z.boolean(),
  dip003_restrict: z.boolean(),
  monero: z.boolean(),
  /** The coin's family (src/shared/families.ts): which views and rules apply. */
  family: z.string(),
  /**
   * Served by the platform's coin-daemon simulator (demos): no real chain, no IP, no
   * earnings. Clients show a "Simulated" badge; worth and revenue are '--'.
   */
  simulated: z.boolean(),
});
export type MasternodeListItem = z.infer<typeof masternodeListItem>;

/** Build-queue item (section 3 and 4): assigning, pending, done, failed. */
export const queueItem = z.object({
  name: z.string(),
  currency: z.string(),
  status: z.enum(['assigning', 'pending', 'done', 'failed']),
  activated: z.boolean(),
  link: z.string(),
  mn_id: z.string(),
  currency_data: currencyData,
  /** Failed items: why, in words. */
  reason: z.string().nullable(),
});
export type QueueItem = z.infer<typeof queueItem>;

export const getMasternodesOutput = z.object({
  masternodes: z.array(masternodeListItem),
  queue: z.array(queueItem),
  total_worth: z.number(),
  /** USD per month for all the user's nodes (30 × daily prices). */
  monthly_cost: z.number(),
});
export type GetMasternodesOutput = z.infer<typeof getMasternodesOutput>;

export const CONFIG_VIEWS = [
  'dip003_restrict',
  'dip003',
  'quick_setup',
  'zen',
  'nrg',
  '3ull',
  'monero',
  'validator',
  'defi',
  'classic',
] as const;

/**
 * What the node's Configuration tab and the details table need, built per family by the
 * server (src/server/nodes/setup.ts): the commands the customer runs in their own
 * wallet with this node's values filled in, and the values to show.
 */
export const nodeSetup = z.object({
  view: z.enum(CONFIG_VIEWS),
  /** Copyable lines: the masternode.conf line, the protx / register / start command... */
  commands: z.array(z.object({ label: z.string(), text: z.string() })),
  /** Rows for the details table; `secret` values are blurred until the eye is toggled. */
  fields: z.array(
    z.object({
      label: z.string(),
      value: z.string(),
      secret: z.boolean(),
      /** The value's page on the coin's public explorer (a txid, an address); null when none is known. */
      href: z.string().nullable(),
    }),
  ),
  /** The start step is done: registered, started or migrated. */
  started: z.boolean(),
  /** A start is under way (quick setup restarting the daemon with the key): the page waits for it. */
  starting: z.boolean(),
  /** Validators: the fee recipient in force and the withdrawal address. */
  fee_recipient: z.string().nullable(),
  withdrawal_address: z.string().nullable(),
  /** Dash family (`protx info`): PoSe penalty and the last block that paid the node. */
  pose_penalty: z.number().nullable(),
  last_paid_block: z.number().nullable(),
  /** Why the commands cannot be given (yet), in a sentence the owner reads where they would be (Energi). */
  missing: z.string().optional(),
});
export type NodeSetup = z.infer<typeof nodeSetup>;

/** Masternode (server) of deployment-and-nodes.md section 3. */
export const masternodeDetail = masternodeListItem.extend({
  status_text: z.string().nullable(),
  collateral: z.number(),
  roi: z.number().nullable(),
  /** USD per day. */
  hosting_price: z.number(),
  package: z.enum(['dedicated', 'cloud']),
  server_ip: z.string().nullable(),
  server_ip6: z.string().nullable(),
  /** Hours between rewards, or null. */
  reward_freq: z.number().nullable(),
  zen: z
    .object({
      ip4: z.string().nullable(),
      ip6: z.string().nullable(),
      id: z.string(),
      /** Null until the operator gives the node a DNS name (none is made up). */ fqdn: z.string().nullable(),
    })
    .nullable(),
  wallet_info: z
    .object({
      version: z.string(),
      protocol_version: z.string(),
      blocks: z.number().nullable(),
      connections: z.number().nullable(),
    })
    .nullable(),
  /** While the node syncs: blocks of headers, percent and the estimate; null once synced. */
  sync: syncProgress.nullable(),
  activity: z
    .object({
      sent: z.number(),
      balance: z.number(),
      address: z.string(),
      transactions: z.array(
        z.object({ block: z.number(), txid: z.string(), human_time: z.string(), amount: z.number() }),
      ),
    })
    .nullable(),
  file_name: z.string(),
  folder_name: z.string(),
  /** Why the node is in error or unknown, in words; null when all is well. */
  problem: z.string().nullable(),
  /** Where the node is in its life (src/shared/lifecycle.ts); failed nodes say why in `problem`. */
  state: z.enum(LIFECYCLE_STATES),
  setup: nodeSetup,
  /** `ip:port` the network reaches the node's daemon on (its public P2P port); null when it has none. */
  address: z.string().nullable(),
  /** The last UPTIME_DAYS UTC days, oldest first: the monitor's checks and how many found the daemon answering. */
  uptime: z.array(z.object({ day: z.string(), checks: z.number(), up: z.number() })),
  /** What happened to the node that its owner sees, newest first. */
  events: z.array(z.object({ kind: z.enum(NODE_EVENT_KINDS), at: z.string() })),
  /** ISO time from which the owner may restart the node again; null: now (or never, when it is not placed). */
  restart_after: z.string().nullable(),
});
export type MasternodeDetail = z.infer<typeof masternodeDetail>;

export const restartNodeOutput = messageResponse;
export const nodeLogOutput = z.object({
  success: z.literal(true),
  /** The daemon's last lines, oldest first, secrets replaced by MASKED. */
  lines: z.array(z.string()),
});
export type NodeLogOutput = z.infer<typeof nodeLogOutput>;

export const getMasternodeOutput = z.object({ success: z.literal(true), data: masternodeDetail });

const mn = z.string().trim().min(1, 'is required').max(80, 'is too long');

/** Delete reasons of section 5, in the dialog's order; "Other" is replaced by the customer's words. */
export const DELETE_REASONS = [
  'There is a problem with the node',
  "I'm not receiving rewards",
  'I no longer want this coin',
  'I will deploy another node',
  "I'm changing my portfolio",
  'Moving to Cloud plan',
  'Moving to Dedicated plan',
  'Coin price dropped so low',
  'Collateral changed, will continue',
  'Collateral changed, will merge',
  "Collateral changed, won't continue",
  'I found a better deal elsewhere',
  "I didn't like your services",
  "I'm not satisfied with the support",
  'Other',
] as const;
export const DELETE_REASON_MAX = 1000;

export const deleteMasternodeInput = z
  .object({
    mn,
    reason: z
      .string()
      .trim()
      .min(1, 'A reason is required.')
      .max(DELETE_REASON_MAX, `must be at most ${DELETE_REASON_MAX} characters`),
  })
  .strict();

/**
 * A deleted validator's EIP-3076 slashing-protection interchange file (JSON text), so
 * the customer can move the key safely; other families answer without it.
 */
export const deleteMasternodeOutput = messageResponse.extend({ slashing_protection: z.string().optional() });
export type DeleteMasternodeOutput = z.infer<typeof deleteMasternodeOutput>;

export const updateAliasInput = z
  .object({
    mn,
    alias: z
      .string()
      .trim()
      .max(ALIAS_MAX, `must be at most ${ALIAS_MAX} characters`)
      .regex(ALIAS_PATTERN, 'may hold only letters, digits, hyphens, underscores and spaces')
      .nullable(),
  })
  .strict();

/** `set_alerts_muted`: a muted node raises no notification (down/up, network, action, rewards). */
export const setAlertsMutedInput = z.object({ mn, muted: z.boolean({ error: 'must be true or false' }) }).strict();

export const updateValidatorFeeInput = z
  .object({ mn, fee_recipient: z.string().trim().max(100), change_for: z.literal('only_this').default('only_this') })
  .strict();

/** A validator's voluntary exit: irreversible, so the owner's confirmation is part of the call. */
export const exitValidatorInput = z
  .object({ mn, confirm: z.literal(true, { error: 'Confirm the exit: it cannot be undone.' }) })
  .strict();

/** Demo: a simulated validator's deposit, seen by its simulated beacon chain. */
export const simulateDepositInput = z.object({ mn }).strict();

/** DIP003 sign-message start: what `protx register_prepare` gave and the signature, as the customer pastes it. */
export const registerSubmitInput = z
  .object({ mn, output: z.string().trim().min(1, 'Paste the result and the signature.').max(20_000, 'is too long') })
  .strict();

/** Quick-setup coins: the text the quick-setup view asks for. */
export const quickSetupInput = z
  .object({ mn, secret: z.string().trim().min(1, 'is required').max(2_000, 'is too long') })
  .strict();

/**
 * A governance proposal. Dash-family daemons bound proposals by time, not height: `start_block`
 * and `end_block` (the spec's names) hold Unix seconds, shown as dates.
 */
export const proposal = z.object({
  name: z.string(),
  budget: z.number(),
  start_block: z.number(),
  end_block: z.number(),
  yes: z.number(),
  no: z.number(),
  abstain: z.number(),
  status: z.string(),
});
export const getProposalsOutput = z.object({ success: z.literal(true), data: z.array(proposal) });

/**
 * A destroyed validator whose EIP-3076 slashing-protection file is kept for its owner
 * (Portfolio, "Removed nodes"); times in ms since the epoch.
 */
export const removedValidator = z.object({
  mn_id: z.string(),
  coin: z.string(),
  coin_label: z.string(),
  alias: z.string().nullable(),
  reason: z.string().nullable(),
  removed_at: z.number(),
  kept_until: z.number(),
  file_name: z.string(),
});
export type RemovedValidator = z.infer<typeof removedValidator>;
export const removedValidatorsOutput = z.object({ success: z.literal(true), data: z.array(removedValidator) });
export const slashingProtectionFileOutput = z.object({
  success: z.literal(true),
  file_name: z.string(),
  /** The interchange file (format version 5), JSON text. */
  json: z.string(),
});
