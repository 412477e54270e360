import type { LifecycleState } from '../../shared/lifecycle';
import type { Generated, Insertable, Selectable } from 'kysely';

// Hand-written to match migrations/. Times are epoch milliseconds; money is
// integer micro-dollars.
/** A username held by a registration that created no account (its email had one), until expires_at. */
export interface UsernameHoldsTable {
  /** Trimmed and lower-cased, as users.username_key. */
  username_key: string;
  expires_at: number;
}

/** The first-run link's token (its SHA-256) and the authenticator secret its page enrols; one hour. */
export interface SetupTokensTable {
  token_hash: string;
  tfa_secret: string;
  created_at: number;
  expires_at: number;
}

/** One row (id 1) whose `n` triggers move on every change that may end a session (migration 1530). */
export interface AuthEpochTable {
  id: number;
  n: number;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  email: string;
  email_key: string;
  password_hash: string;
  verified_at: number | null;
  referrer: string | null;
  /** The referring account, resolved from `referrer` at registration (migration 2040); null when it named nobody. */
  referrer_id: number | null;
  room_id: string;
  qr_key: string;
  tfa_secret: string | null;
  tfa_enabled: Generated<number>;
  tfa_last_step: Generated<number>;
  tfa_failures: Generated<number>;
  tfa_locked_until: Generated<number>;
  disabled_at: number | null;
  created_at: number;
  role: Generated<UserRole>;
  /** The address the account registered from (migration 0310); null for accounts from before. */
  registered_ip: Generated<string | null>;
}
export type User = Selectable<UsersTable>;
/** Operators may call operator procedures; nothing in the product shows the role. */
export type UserRole = 'customer' | 'operator';

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Public handle of the key (the spec's auth_key in lists); not a secret. */
  key_prefix: string;
  /** sha256 of the whole key; the key itself is shown once and never stored. */
  key_hash: string;
  /** Comma-separated IP addresses the key may be used from; empty = any. */
  allowed: Generated<string>;
  created_at: number;
  last_used_at: number | null;
  /** The address of the last use (recorded with last_used_at). */
  last_used_ip: string | null;
  /** 1: queries only (GET), mutations are refused. */
  read_only: Generated<number>;
}
export type ApiKey = Selectable<ApiKeysTable>;

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
  revoked_at: number | null;
}
export type Session = Selectable<SessionsTable>;

export type EmailTokenKind = 'verify' | 'reset';
export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: EmailTokenKind;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export type MailStatus = 'pending' | 'sent' | 'logged' | 'failed';
export interface MailOutboxTable {
  id: Generated<number>;
  to_addr: string;
  subject: string;
  text: string;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** The HTML part, when the mail has one (the text part is always there). */
  html: string | null;
  /** Extra headers as a JSON object (List-Unsubscribe, ...). */
  headers: string | null;
  /** Unique when set: a retried job that queues this mail finds it instead of queuing it twice. */
  idempotency_key: string | null;
}
export type OutboxMail = Selectable<MailOutboxTable>;

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  user_id: number | null;
  type: string;
  payload: string;
  created_at: number;
}

export interface LedgerTransfersTable {
  id: Generated<number>;
  idempotency_key: string;
  debit_account: string;
  credit_account: string;
  amount: number;
  kind: string;
  description: string;
  created_at: number;
  /** JSON: what the transfer was computed from (price and source, txid, session); for the record only. */
  meta: string | null;
}
export type NewLedgerTransfer = Insertable<LedgerTransfersTable>;

/** Posted totals per account, moved by a trigger on every transfer insert (migration 2000). */
/** How far the daily charge got on a UTC day (billing/daily-charge.ts). */
/** One node's fee for one day: written once (its key); the owner's transfer `daily:<user>:<day>` holds the sum. */
export interface NodeChargesTable {
  day: string;
  user_id: number;
  node_id: number;
  amount: number;
}

export interface ChargeDaysTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** With `cursor_node`: the last (owner, node) charged for the day (chunks go by owner, then node). */
  cursor: Generated<number>;
  cursor_node: Generated<number>;
  started_at: number;
  completed_at: Generated<number | null>;
  /** The day's low-balance reminders went out. */
  reminded_at: Generated<number | null>;
}

/** An image build the operator asked for (nodes/images.ts): a profile's recipe on a host. */
export interface ImageBuildsTable {
  id: Generated<number>;
  profile: string;
  /** The host's name (a removed host's builds keep it). */
  host: string;
  /** The tag the build gives the image: the profile's `image`. */
  image: string;
  /** JSON object of the build arguments (VERSION, SHA256…); none of them secret. */
  build_args: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  /** The last lines of the build's output. */
  log_tail: Generated<string>;
  /** Why it failed: the failed step's message. */
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A day whose charge was late (not completed by 01:00 UTC) and the operators were told. */
/** `coins check` runs: a coin's daemon tried on a host before the coin is offered (nodes/coin-check.ts). */
export interface CoinChecksTable {
  id: Generated<number>;
  coin_id: string;
  profile_id: string;
  host_id: number | null;
  state: 'queued' | 'running' | 'passed' | 'failed';
  /** Why it failed, in one sentence the console shows. */
  reason: string | null;
  /** JSON: [{step, ok, detail}] in the order run. */
  steps: Generated<string>;
  program: string | null;
  program_id: string | null;
  requested_at: number;
  checked_at: number | null;
}
export type CoinCheck = Selectable<CoinChecksTable>;

export interface ChargeLateAlertsTable {
  day: string;
  alerted_at: number;
}

/** One low-balance reminder per user and UTC day. */
export interface BalanceRemindersTable {
  user_id: number;
  day: string;
  at: number;
  /** 1 once the day's warning that the balance does not cover the next charge was raised. */
  short: Generated<number>;
}

export interface LedgerAccountsTable {
  account: string;
  debits: Generated<number>;
  credits: Generated<number>;
}

/** A Stripe Checkout session a user opened (migration 2030); `id` is Stripe's. */
export interface CardSessionsTable {
  id: string;
  user_id: number;
  amount: number;
  currency: string;
  url: string;
  request_key: string;
  status: 'pending' | 'paid' | 'cancelled' | 'expired';
  created_at: number;
  updated_at: number;
  /** Stripe's fingerprint of the card that paid, recorded with the credit (migration 0310); null when unknown. */
  card_fingerprint: Generated<string | null>;
  /** Stripe's PaymentIntent, recorded when the payment is credited: refunds and disputes name it (migration 0300). */
  payment_intent: string | null;
}

/** What was refunded and what is taken back from one paid card session (migration 0300); micro-dollars. */
export interface CardReversalsTable {
  session_id: string;
  /** The largest `amount_refunded` Stripe reported for the charge. */
  refunded: number;
  /** What is taken from the customer for this payment now: min(credited, refunded + open or lost disputes). */
  taken: number;
  updated_at: number;
}

/** One Stripe dispute of a card payment (migration 0300). */
export interface CardDisputesTable {
  id: string;
  session_id: string;
  amount: number;
  status: 'open' | 'won' | 'lost';
  created_at: number;
  updated_at: number;
}

/** The Stripe events about charges and disputes that were applied, by event id (migration 0300). */
export interface CardEventsTable {
  id: string;
  type: string;
  session_id: string;
  applied_at: number;
}

/** An operator-made gift code, stored by hash (migration 2031). */
export interface GiftCodesTable {
  id: Generated<number>;
  code_hash: string;
  hint: string;
  amount: number;
  expires_at: number;
  batch: string;
  created_at: number;
  redeemed_by: number | null;
  redeemed_at: number | null;
  /** Set when the operator revoked it unused (migration 2150); redemption refuses it. */
  revoked_at: number | null;
}

/** An accepted deposit currency and its watch-only source (migration 2020; src/server/billing/crypto). */
export interface DepositCurrenciesTable {
  id: string;
  label: string;
  ticker: string;
  icon_id: string | null;
  kind: 'bitcoin' | 'monero';
  confirmations: number;
  /** Micro-dollars: a deposit worth less at credit time is recorded, not credited. */
  minimum: number;
  /** The coin whose market quote prices a deposit (`market_quotes.coin_id`). */
  price_coin: string;
  decimals: number;
  enabled: Generated<number>;
  xpub: string | null;
  /** Bitcoin family: `wpkh:<hrp>` or `pkh:<version byte>`. */
  address_type: string | null;
  rpc_url: string;
  rpc_user: string | null;
  /** Sealed. */
  rpc_password: string | null;
  rpc_cookie: string | null;
  wallet: string | null;
  next_index: Generated<number>;
  imported_to: Generated<number>;
  /** Bitcoin family: listsinceblock's next start (null: from the beginning). */
  cursor: string | null;
  /** Bitcoin family: where the next import's rescan starts (ms): the previous import, less slack. */
  watch_from: number;
  created_at: number;
}
export type DepositCurrency = Selectable<DepositCurrenciesTable>;

export interface DepositAddressesTable {
  currency_id: string;
  user_id: number;
  address: string;
  idx: number;
  created_at: number;
}

export interface DepositsTable {
  id: Generated<number>;
  currency_id: string;
  txid: string;
  vout: number;
  user_id: number;
  address: string;
  amount: string;
  confirmations: number;
  state: 'pending' | 'credited' | 'below_minimum' | 'removed';
  usd_micros: number | null;
  seen_at: number;
  updated_at: number;
}

export interface PageVisitsTable {
  id: Generated<number>;
  user_id: number;
  path: string;
  at: number;
}

/** The one row /readyz rewrites to prove the database takes a write (migration 2120). */
export interface ReadinessProbeTable {
  id: number;
  at: number;
}

export interface OperatorLogTable {
  id: Generated<number>;
  action: string;
  detail: string;
  at: number;
  /** Who wrote the line (migration 2100); 'unknown' only on rows from before. */
  actor: Generated<OperatorLogActorKind>;
  /** The operator's account for 'operator'. */
  actor_user_id: number | null;
  /** The CLI's OS user, the platform job's name, or the operator's username then. */
  actor_name: Generated<string>;
  /** The request's IP; 'cli' for the command line, 'system' for the platform itself. */
  address: Generated<string>;
}
export type OperatorLogActorKind = 'operator' | 'cli' | 'system' | 'unknown';

export interface CoinsTable {
  id: string;
  position: number;
  label: string;
  ticker: string;
  family: string;
  /** Decimal text in coin units. */
  collateral: string;
  dedicated_price: number;
  cloud_price: number;
  campaign: number;
  campaign_dedicated_price: number;
  campaign_cloud_price: number;
  cloud: number;
  maintenance: number;
  delisted: number;
  kyd: number;
  dip003: number;
  dip003_restrict: number;
  monero: number;
  validator_evm: number;
  market_id: string | null;
  /** JSON: CoinDetails (src/server/coins/catalog-file.ts). */
  details: string;
  updated_at: number;
}
export type CoinRecord = Selectable<CoinsTable>;

export interface MarketQuotesTable {
  coin_id: string;
  provider: string;
  price_usd: number;
  volume_24h_usd: number;
  market_cap_usd: number;
  change_24h_pct: number | null;
  /** JSON: ExchangeTicker[] */
  exchanges: Generated<string>;
  updated_at: number;
}
export type MarketQuote = Selectable<MarketQuotesTable>;

export interface MarketHistoryTable {
  coin_id: string;
  at: number;
  price_usd: number;
  volume_24h_usd: number;
  market_cap_usd: number;
}

/** The customer's node and its lifecycle (src/shared/lifecycle.ts). Written by nodes and deploy. */
export interface NodesTable {
  id: Generated<number>;
  mn_id: string;
  user_id: number;
  coin_id: string;
  package: 'dedicated' | 'cloud';
  state: LifecycleState;
  failed_reason: Generated<string | null>;
  alias: Generated<string | null>;
  /** What the customer typed: a transaction id, an address or a licence key, by family. */
  entry: Generated<string | null>;
  payee: Generated<string | null>;
  output_text: Generated<string | null>;
  /** Sealed JSON (src/server/secrets): never plaintext. */
  secrets: Generated<string | null>;
  validator_pubkey: Generated<string | null>;
  fee_recipient: Generated<string | null>;
  deploy_id: Generated<string | null>;
  started_at: Generated<number | null>;
  /** A start being asked of the daemon since then (nodes/actions.ts withStartClaim); expires after START_CLAIM_MS. */
  start_claim_at: Generated<number | null>;
  delete_reason: Generated<string | null>;
  /** Micro-dollars per day at creation. */
  hosting_price: Generated<number>;
  /** 1: served by the coin-daemon simulator (FLEET_SIMULATOR). */
  simulated: Generated<number>;
  created_at: number;
  /** When the node entered its current state. */
  state_at: number;
  /** When its owner (or the operator) asked for it to go. */
  deleted_at: Generated<number | null>;
}

/** Where and how the fleet runs a node. Written by the fleet. */
export interface PlacementsTable {
  node_id: number;
  host_id: number | null;
  daemon_profile: string;
  /** JSON: { [name]: port } */
  ports: Generated<string>;
  rpc_user: Generated<string | null>;
  rpc_password: Generated<string | null>;
  server_ip: Generated<string | null>;
  server_ip6: Generated<string | null>;
  /** The coin's fixed public P2P port on server_ip; null for the simulator. */
  p2p_port: Generated<number | null>;
  attempts: Generated<number>;
  next_attempt_at: Generated<number | null>;
  last_error: Generated<string | null>;
  provisioned_at: Generated<number | null>;
  restart_requested_at: Generated<number | null>;
  restarted_at: Generated<number | null>;
  engine_restarts: Generated<number>;
  destroyed_at: Generated<number | null>;
  /** The daemon version the node runs (migration 2320); null: its profile's. */
  daemon_version: Generated<string | null>;
}

/** What the monitor last saw of a node. Written by the fleet's monitor. */
export interface ObservationsTable {
  node_id: number;
  status: string;
  status_on_network: Generated<string | null>;
  status_text: Generated<string | null>;
  problem: Generated<string | null>;
  /** JSON: { version, protocol_version, blocks, connections } */
  wallet_info: Generated<string | null>;
  blocks: Generated<number | null>;
  /** JSON: { sent, balance, address, transactions } */
  activity: Generated<string | null>;
  pose_penalty: Generated<number | null>;
  active_since: Generated<number | null>;
  last_paid: Generated<number | null>;
  last_paid_height: Generated<number | null>;
  reward_freq_s: Generated<number | null>;
  first_answer_at: Generated<number | null>;
  checked_at: Generated<number | null>;
  network_checked_at: Generated<number | null>;
}

/** A syncing node's progress (migrations/2026-11-28T0930-sync-progress.ts), written by the monitor. */
/** A destroyed validator's EIP-3076 file, kept for its owner (nodes/exit-files.ts); outlives the node's row. */
export interface ValidatorExitFilesTable {
  mn_id: string;
  user_id: number;
  coin_id: string;
  alias: string | null;
  /** 0x + 96 hex. */
  pubkey: string;
  /** The interchange JSON (format version 5). */
  interchange: string;
  /** Why the node was destroyed (the delete reason). */
  reason: string | null;
  created_at: number;
  expires_at: number;
}

export interface SyncProgressTable {
  node_id: number;
  blocks: number | null;
  /** The chain's height the node catches up with. */
  headers: number | null;
  synced: Generated<number>;
  /** When blocks last rose (or the first look): a stall is measured from it. */
  rose_at: number;
  /** The estimate's window: its rate runs from `ref` to now; `mid` becomes `ref` half a window on. */
  ref_blocks: number;
  ref_at: number;
  mid_blocks: number;
  mid_at: number;
  /** Blocks per second over the window, null until blocks rose within it. */
  rate: number | null;
}

/** A reward a real node was paid (migrations/2026-11-28T1060-node-rewards.ts), written by the monitor. */
export interface NodeRewardsTable {
  id: Generated<number>;
  user_id: number;
  node_id: number;
  mn_id: string;
  coin_id: string;
  /** The block that paid it. */
  height: number;
  paid_at: number;
  /** The node's share of the block's reward, in 1e-8 coin units. */
  amount_atomic: number;
  /** The coin's USD price the platform held when the reward was seen; null without a quote. */
  price_usd: number | null;
  usd_micros: number | null;
  created_at: number;
}
export type NodeReward = Selectable<NodeRewardsTable>;
/** Per node and UTC day: the monitor's checks and how many found the daemon answering (migration 1050). */
export interface NodeUptimeTable {
  node_id: number;
  /** Days since 1970-01-01 UTC. */
  day: number;
  checks: Generated<number>;
  up: Generated<number>;
}

/** What happened to a node that its owner sees (migration 1050): `restart_requested`, `restarted`. */
export interface NodeEventsTable {
  id: Generated<number>;
  node_id: number;
  at: number;
  kind: string;
  /** JSON, or null. */
  detail: string | null;
}

/** node_view: the three joined, read-only (migrations/2026-11-23T1400-node-lifecycle.ts). */
export interface NodeViewTable {
  id: number;
  mn_id: string;
  user_id: number;
  coin_id: string;
  package: 'dedicated' | 'cloud';
  state: LifecycleState;
  failed_reason: string | null;
  alias: string | null;
  entry: string | null;
  payee: string | null;
  output_text: string | null;
  secrets: string | null;
  validator_pubkey: string | null;
  fee_recipient: string | null;
  deploy_id: string | null;
  started_at: number | null;
  delete_reason: string | null;
  hosting_price: number;
  simulated: number;
  created_at: number;
  state_at: number;
  deleted_at: number | null;
  host_id: number | null;
  daemon_profile: string | null;
  ports: string;
  rpc_user: string | null;
  rpc_password: string | null;
  server_ip: string | null;
  server_ip6: string | null;
  p2p_port: number | null;
  attempts: number;
  next_attempt_at: number | null;
  provisioned_at: number | null;
  restart_requested_at: number | null;
  restarted_at: number | null;
  engine_restarts: number;
  destroyed_at: number | null;
  /** Customer-facing: deploying while set up, error when failed, else the monitor's (unknown before its first look). */
  status: string;
  status_on_network: string | null;
  status_text: string | null;
  wallet_info: string | null;
  blocks: number | null;
  activity: string | null;
  pose_penalty: number | null;
  active_since: number | null;
  last_paid: number | null;
  last_paid_height: number | null;
  reward_freq_s: number | null;
  first_answer_at: number | null;
  last_checked_at: number | null;
  last_network_check_at: number | null;
  /** Why the node failed, or the monitor's / the engine's last problem. */
  last_error: string | null;
}
export type Masternode = NodeViewTable;

export interface HostsTable {
  id: Generated<number>;
  name: string;
  engine: 'local' | 'docker';
  url: string | null;
  ipv4: string;
  ipv6: string | null;
  dedicated_slots: number;
  cloud_slots: number;
  state: 'active' | 'draining' | 'gone';
  last_error: string | null;
  created_at: number;
  /** What the host check last measured of the nodes' disk (migration 2122); null: never, or the engine cannot say. */
  disk_free_bytes: number | null;
  disk_total_bytes: number | null;
  disk_checked_at: number | null;
  /** Since when free disk is below HOST_DISK_MIN_FREE_GB (operators alerted then); placement passes the host meanwhile. */
  disk_low_at: number | null;
  /** The host's memory as the host check last read it (migration 2026-11-28T0900); null: never, or the engine cannot say. */
  memory_total_bytes: number | null;
  /** Sealed JSON (fleet/host-credentials.ts): TLS client material or an SSH key; null for a socket. */
  credentials: Generated<string | null>;
}
export type Host = Selectable<HostsTable>;

export type JobState = 'queued' | 'running' | 'failed';
export interface JobsTable {
  id: Generated<number>;
  name: string;
  /** Single flight: at most one queued or running row per key. */
  key: string;
  /** JSON, checked against the job's schema in src/shared/jobs.ts. */
  payload: string;
  state: JobState;
  attempts: Generated<number>;
  /** Queued: when it is due. Running: when its lease ends (its owner is presumed dead). */
  run_at: number;
  owner: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}
export type JobRow = Selectable<JobsTable>;

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  /** The kind's parameters as JSON (the mail is rendered from them). */
  params: string;
  message: string;
  icon: string;
  link: string;
  /** The spec's `hour`: "2026-11-23 14:05" UTC, fixed when raised. */
  hour: string;
  created_at: number;
  cleared_at: number | null;
  /** 0: mailed as raised (or not mailed); 1: mail held for the quiet-hours summary; 2: summarised. */
  mail_held: Generated<number>;
  /** 1: its alert-channel deliveries wait for the quiet-hours summary; 2: summarised. */
  channels_held: Generated<number>;
}
export type NotificationRow = Selectable<NotificationsTable>;

/** Only settings a user saved; a missing row means the setting's default. */
export interface NotificationSettingsTable {
  user_id: number;
  setting: string;
  enabled: number;
  updated_at: number;
}

/**
 * A masternode key an older version kept in plaintext in output_text, moved here by a
 * migration (which has no secrets key) until the server seals it at start-up and deletes
 * the row (nodes/key-moves.ts). Empty once the server has started.
 */
export interface MasternodeKeyMovesTable {
  node_id: number;
  masternode_key: string;
}

/** A user's alert channel beyond email (notifications/channels). */
export interface AlertChannelsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  /** What the owner sees again: webhook URL, chat id, Discord webhook id. */
  target: string;
  /** Sealed (SecretBox, bound to the owner and type: channels/seal.ts). */
  secret: string;
  enabled: number;
  failures: number;
  last_error: string | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}
export type AlertChannelRow = Selectable<AlertChannelsTable>;

/** Per node: flap damping state, what was already alerted, the owner's mute (notifications/alert-queries.ts). */
export interface NodeAlertsTable {
  node_id: number;
  failing_since: number | null;
  down_raised: Generated<number>;
  last_down_at: number | null;
  streak_counted: Generated<number>;
  flaps: Generated<number>;
  network_alerted: string | null;
  action_alerted: string | null;
  reward_height: number | null;
  muted: Generated<number>;
  /** 1 once the node's sync stall was told; 0 again when it moves on. */
  sync_stall_raised: Generated<number>;
  /** 1 once the owner was told the node runs (`node_running`, once per node). */
  running_raised: Generated<number>;
}

/** Per user: UTC hours during which notification mail is held and summarised after. */
export interface QuietHoursTable {
  user_id: number;
  start_hour: number;
  end_hour: number;
}

/** A support chat: a customer's (`user_id`) or a visitor's (`visitor_email`, `token_hash`). */
export interface SupportConversationsTable {
  id: Generated<number>;
  user_id: number | null;
  visitor_email: string | null;
  /** SHA-256 (hex) of the visitor's token; null for a customer's conversation. */
  token_hash: string | null;
  created_at: number;
  last_message_at: number;
  operator_unread: Generated<number>;
  customer_unread: Generated<number>;
  /** 1: a visitor's conversation past the hourly rate, kept out of the inbox until its email is confirmed. */
  held: Generated<number>;
  /** SHA-256 (hex) of the mailed confirmation link's token; kept after confirmation (a reused link is told apart). */
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  confirmed_at: number | null;
}

export interface SupportMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  from_operator: number;
  operator_id: number | null;
  body: string;
  /** 1: left outside support hours, so the answer goes by email. */
  outside_hours: Generated<number>;
  created_at: number;
}

/** The daemon version new nodes of a coin get (none: the profile's). */
export interface CoinDaemonVersionsTable {
  coin_id: string;
  version: string;
  set_at: number;
}

export type RolloutState = 'running' | 'paused' | 'done' | 'halted' | 'aborted';
export type RolloutNodeState = 'pending' | 'upgrading' | 'healthy' | 'failed' | 'rolled_back' | 'skipped';

export interface DaemonRolloutsTable {
  id: Generated<number>;
  coin_id: string;
  from_version: string | null;
  to_version: string;
  batch_size: number;
  batches: number;
  current_batch: Generated<number>;
  state: RolloutState;
  reason: string | null;
  started_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface DaemonRolloutNodesTable {
  rollout_id: number;
  node_id: number;
  /** 0: the canary; 1 and on: the batches after it. */
  batch: number;
  state: RolloutNodeState;
  error: string | null;
  updated_at: number;
}

export type ReferralBonusStatus = 'pending' | 'awaiting_approval' | 'paid' | 'cancelled' | 'refused';
/** One referred user's bonus, from their first qualifying deposit (migration 0310); money moves only when it is paid. */
export interface ReferralBonusesTable {
  id: Generated<number>;
  referred_user_id: number;
  referrer_id: number;
  /** The ledger transfer of the deposit that earned it (a refund or dispute of it cancels the bonus). */
  deposit_transfer_id: number;
  amount: number;
  status: ReferralBonusStatus;
  /** Why it waits, was cancelled or refused (shown to the operator). */
  reason: string | null;
  created_at: number;
  /** When a pending bonus becomes spendable (14 days after the deposit). */
  matures_at: number;
  /** The operator who approved or refused it. */
  decided_by: number | null;
  decided_at: number | null;
}
export type ReferralBonus = Selectable<ReferralBonusesTable>;

export interface Database {
  alert_channels: AlertChannelsTable;
  node_alerts: NodeAlertsTable;
  quiet_hours: QuietHoursTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  coins: CoinsTable;
  market_quotes: MarketQuotesTable;
  market_history: MarketHistoryTable;
  nodes: NodesTable;
  placements: PlacementsTable;
  observations: ObservationsTable;
  sync_progress: SyncProgressTable;
  validator_exit_files: ValidatorExitFilesTable;
  node_rewards: NodeRewardsTable;
  node_uptime: NodeUptimeTable;
  node_events: NodeEventsTable;
  node_view: NodeViewTable;
  hosts: HostsTable;
  users: UsersTable;
  username_holds: UsernameHoldsTable;
  setup_tokens: SetupTokensTable;
  auth_epoch: AuthEpochTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  mail_outbox: MailOutboxTable;
  settings: SettingsTable;
  events: EventsTable;
  ledger_transfers: LedgerTransfersTable;
  ledger_accounts: LedgerAccountsTable;
  card_sessions: CardSessionsTable;
  card_reversals: CardReversalsTable;
  card_disputes: CardDisputesTable;
  card_events: CardEventsTable;
  gift_codes: GiftCodesTable;
  deposit_currencies: DepositCurrenciesTable;
  deposit_addresses: DepositAddressesTable;
  deposits: DepositsTable;
  charge_days: ChargeDaysTable;
  charge_late_alerts: ChargeLateAlertsTable;
  coin_checks: CoinChecksTable;
  image_builds: ImageBuildsTable;
  node_charges: NodeChargesTable;
  balance_reminders: BalanceRemindersTable;
  page_visits: PageVisitsTable;
  operator_log: OperatorLogTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
  masternode_key_moves: MasternodeKeyMovesTable;
  readiness_probe: ReadinessProbeTable;
  support_conversations: SupportConversationsTable;
  support_messages: SupportMessagesTable;
  coin_daemon_versions: CoinDaemonVersionsTable;
  daemon_rollouts: DaemonRolloutsTable;
  referral_bonuses: ReferralBonusesTable;
  daemon_rollout_nodes: DaemonRolloutNodesTable;
}
