import { z } from 'zod';

export const mnQuery = z.object({ masternode: z.string().trim().min(1, 'is required').max(80, 'is too long') }).strict();

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
  payee: z.string(),
  front_options: z.object({ validator_evm: z.boolean() }),
  dip003: z.boolean(),
  dip003_restrict: z.boolean(),
  monero: z.boolean(),
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

/** Masternode (server) of deployment-and-nodes.md section 3. */
export const masternodeDetail = masternodeListItem.extend({
  status_text: z.string().nullable(),
  collateral: z.number(),
  roi: z.number().nullable(),
  /** USD per day. */
  hosting_price: z.number(),
  package: z.enum(['dedicated', 'cloud']),
  start_cmd: z.string(),
  server_ip: z.string().nullable(),
  server_ip6: z.string().nullable(),
  /** Hours between rewards, or null. */
  reward_freq: z.number().nullable(),
  zen: z.object({ ip4: z.string().nullable(), ip6: z.string().nullable(), id: z.string(), fqdn: z.string() }).nullable(),
  wallet_info: z.object({ version: z.string(), protocol_version: z.string(), blocks: z.number().nullable(), connections: z.number().nullable() }).nullable(),
  activity: z.object({ sent: z.number(), balance: z.number(), address: z.string(), transactions: z.array(z.object({ block: z.number(), txid: z.string(), human_time: z.string(), amount: z.number() })) }).nullable(),
  file_name: z.string(),
  folder_name: z.string(),
  /** Why the node is in error or unknown, in words; null when all is well. */
  problem: z.string().nullable(),
});
export type MasternodeDetail = z.infer<typeof masternodeDetail>;

export const getMasternodeOutput = z.object({ success: z.literal(true), data: masternodeDetail });
