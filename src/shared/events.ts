import { z } from 'zod';

/**
 * The live events of the spec (platform-and-account.md section 4), with their payloads.
 * One map: the server publishes only these names and the client switches on them.
 */
export const liveEventPayloads = {
  restarted: z.object({}),
  /** The operator switched maintenance on or off: open tabs switch to or from the maintenance app without a reload. */
  maintenance: z.object({ on: z.boolean() }),
  new_notification: z.object({ message: z.string(), icon: z.string().optional(), link: z.string().optional() }),
  update_balance: z.object({ balance: z.number() }),
  /** Something in every profile changed (the operator's banner): refetch it. */
  refresh_profile: z.object({}),
  update_stats: z.object({}),
  refresh_notifications: z.object({}),
  refresh_queue: z.object({}),
  refresh_masternodes: z.object({}),
  refresh_masternode: z.object({ mn_id: z.string() }),
  refresh_transactions: z.object({}),
  server_created: z.object({ server_id: z.string() }),
  started: z.object({ mn_id: z.string() }),
  /** A support chat changed (a message either way): the widget, or the console's inbox, refetches it. */
  support_chat: z.object({}),
} as const;

export type LiveEventName = keyof typeof liveEventPayloads;
export const liveEventNames = Object.keys(liveEventPayloads) as LiveEventName[];

export type LiveEventPayload<N extends LiveEventName> = z.infer<(typeof liveEventPayloads)[N]>;

/** What a subscriber receives: a discriminated union over the map. */
export type LiveEvent = { [N in LiveEventName]: { type: N; payload: LiveEventPayload<N> } }[LiveEventName];

export const liveSubscriptionInput = z
  .object({ lastEventId: z.string().max(64).nullish() })
  .strict()
  .optional();
