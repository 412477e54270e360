import { z } from 'zod';

/**
 * Background work, by name. Two kinds, one map:
 *
 * - Queued jobs are rows of the `jobs` table: they survive a restart and may be written
 *   by another process (the operator CLI). Each name has its payload schema; the runner
 *   checks a payload against it before the handler sees it.
 * - Recurring jobs run inside the server on an in-memory schedule (an interval or a cron
 *   pattern) with single flight and a deadline, and write no row while idle.
 */
export const queuedJobPayloads = {
  /** Send one mail of `mail_outbox` (its row holds the text and the outcome). */
  'mail.send': z.object({ mail_id: z.number().int().positive() }),
  /** Render one notification's mail (text, HTML, unsubscribe headers) into `mail_outbox`. */
  'notify.mail': z.object({ notification_id: z.number().int().positive() }),
  /** Deliver one notification to one of the user's alert channels (webhook, Telegram, Discord). */
  'notify.channel': z.object({ notification_id: z.number().int().positive(), channel_id: z.number().int().positive() }),
  /** At the end of a user's quiet hours: one channel message summarising notifications `first_id`..`last_id` that were held from it. */
  'notify.channel_summary': z.object({
    channel_id: z.number().int().positive(),
    first_id: z.number().int().positive(),
    last_id: z.number().int().positive(),
  }),
  /** At the end of a user's quiet hours: one mail summarising the notifications whose mail was held, and one message to each alert channel. */
  'notify.quiet_summary': z.object({ user_id: z.number().int().positive() }),
  /**
   * Quick setup: restart the node's daemon with the operator key its owner sent (`key`,
   * sealed), then complete the start claimed at `claim_at`; a refusal gives the claim back
   * and tells the owner.
   */
  'nodes.quick_setup': z.object({
    node_id: z.number().int().positive(),
    claim_at: z.number().int(),
    key: z.string().min(1),
  }),
  /**
   * `coins check` (the command line, the console's Catalog): a coin's daemon tried on a host
   * before the coin is offered; the row in coin_checks holds the request and the result.
   */
  'nodes.coin_check': z.object({ check_id: z.number().int().positive() }),
  /** Build a profile's image from its recipe on a Docker/Podman host (nodes/images.ts); the row of `image_builds` says what. */
  'images.build': z.object({ build_id: z.number().int().positive() }),
} as const;

export const recurringJobNames = [
  /** Charge every node its daily fee (00:00 UTC), catch up missed days, remind low balances. */
  'billing.daily_charge',
  /** Deliver committed `events` rows to live subscribers. */
  'events.poll',
  /** Read the deposit daemons: new payments, confirmations, reorgs; credit at the threshold. */
  'deposits.watch',
  /** Make the engines match the nodes' lifecycle states. */
  'fleet.reconcile',
  /** Ask every host for its free disk; alert the operators and stop placing on a host short of it. */
  'fleet.hosts',
  'fleet.rollouts',
  /** Fetch prices, exchanges and history. */
  'market.refresh',
  /** Pay the referral bonuses whose 14 days are over (referrals/mature.ts). */
  'referrals.mature',
  /** Delete what has outlived its use (events, visits, sessions, finished nodes, failed jobs). */
  'prune',
  /** The daily backup into BACKUP_DIR, and old ones deleted (BACKUP_KEEP_DAYS). */
  'backup.daily',
] as const;

export type QueuedJobName = keyof typeof queuedJobPayloads;
export type QueuedJobPayload<N extends QueuedJobName> = z.infer<(typeof queuedJobPayloads)[N]>;
export type RecurringJobName = (typeof recurringJobNames)[number];
