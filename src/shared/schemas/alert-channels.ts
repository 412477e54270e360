import { z } from 'zod';

/** Where alerts can go besides email and the in-app list (src/server/notifications/README.md). */
export const alertChannelTypes = ['webhook', 'telegram', 'discord'] as const;
export type AlertChannelType = (typeof alertChannelTypes)[number];

const url = z.string().trim().min(1, 'Enter the URL.').max(500, 'The URL is at most 500 characters.');

/** What a new channel needs; the service checks the URL's scheme and host (a message per field). */
export const addAlertChannelInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('webhook'), url }).strict(),
    z
      .object({
        type: z.literal('telegram'),
        bot_token: z
          .string()
          .trim()
          .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'The bot token looks like 123456789:AAE... (from @BotFather).'),
        chat_id: z
          .string()
          .trim()
          .regex(
            /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/,
            'The chat id is a number such as 123456789 or -100123..., or @channelname.',
          ),
      })
      .strict(),
    z.object({ type: z.literal('discord'), url }).strict(),
  ],
  { error: 'The channel type is webhook, telegram or discord.' },
);
export type AddAlertChannelInput = z.infer<typeof addAlertChannelInput>;

export const alertChannelId = z.object({ id: z.number().int().positive('Unknown channel.') }).strict();
export const saveAlertChannelInput = z
  .object({ id: z.number().int().positive('Unknown channel.'), enabled: z.boolean() })
  .strict();

export const alertChannel = z.object({
  id: z.number(),
  type: z.enum(alertChannelTypes),
  /** The webhook URL, the chat id, or the Discord webhook's id (its token is not shown again). */
  target: z.string(),
  enabled: z.boolean(),
  /** Failed deliveries in a row. */
  failures: z.number(),
  last_error: z.string().nullable(),
  /** Why the platform turned it off (too many failures); null otherwise. */
  disabled_reason: z.string().nullable(),
  created_at: z.number(),
});
export type AlertChannel = z.infer<typeof alertChannel>;

export const alertChannelsOutput = z.object({ success: z.literal(true), channels: z.array(alertChannel) });
export const saveAlertChannelOutput = z.object({ success: z.literal(true), channel: alertChannel });
/** `secret`: the webhook's signing secret, shown this once. */
export const addAlertChannelOutput = z.object({
  success: z.literal(true),
  channel: alertChannel,
  secret: z.string().optional(),
});
/** A test message: whether the remote took it, and its error when not. */
export const testAlertChannelOutput = z.object({ success: z.boolean(), message: z.string() });
