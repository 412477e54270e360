import { z } from 'zod';

/** One notification as the spec lists it (platform-and-account.md section 3). */
export const notification = z.object({ message: z.string(), icon: z.string(), link: z.string(), hour: z.string() });
export type Notification = z.infer<typeof notification>;

export const getNotificationsOutput = z.object({ success: z.literal(true), notifications: z.array(notification) });
export type GetNotificationsOutput = z.infer<typeof getNotificationsOutput>;

/** One email setting (keyed by its name in the answer). */
export const notificationSetting = z.object({ label: z.string(), subtitle: z.string(), enabled: z.boolean() });

export const notificationSettingsOutput = z.object({
  success: z.literal(true),
  settings: z.record(z.string(), notificationSetting),
});
export type NotificationSettingsOutput = z.infer<typeof notificationSettingsOutput>;

/** `{settings: [enabled keys]}`; which keys exist is checked by the service (with a message naming them). */
export const saveNotificationSettingsInput = z
  .object({
    settings: z
      .array(z.string().max(64, 'each setting name is at most 64 characters'))
      .max(100, 'at most 100 settings'),
  })
  .strict();
export type SaveNotificationSettingsInput = z.infer<typeof saveNotificationSettingsInput>;

const hour = z
  .number({ error: 'must be a whole hour from 0 to 23 (UTC)' })
  .int('must be a whole hour from 0 to 23 (UTC)')
  .min(0, 'must be a whole hour from 0 to 23 (UTC)')
  .max(23, 'must be a whole hour from 0 to 23 (UTC)');

/** Quiet hours in UTC: from the start of `start_hour` to the start of `end_hour` (may wrap past midnight). */
export const quietHours = z
  .object({ start_hour: hour, end_hour: hour })
  .strict()
  .refine((q) => q.start_hour !== q.end_hour, { error: 'The start and end hour must differ.', path: ['end_hour'] });

/** `save_quiet_hours`: null turns quiet hours off. */
export const saveQuietHoursInput = z.object({ quiet_hours: quietHours.nullable() }).strict();

/** `get_alert_settings`: the quiet hours (null: none) and the ids of the caller's muted nodes. */
export const alertSettingsOutput = z.object({
  success: z.literal(true),
  quiet_hours: z.object({ start_hour: z.number(), end_hour: z.number() }).nullable(),
  muted_nodes: z.array(z.string()),
});
export type AlertSettingsOutput = z.infer<typeof alertSettingsOutput>;
