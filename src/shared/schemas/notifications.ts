import { z } from 'zod';

/** One notification as the spec lists it (platform-and-account.md section 3). */
export const notification = z.object({ message: z.string(), icon: z.string(), link: z.string(), hour: z.string() });
export type Notification = z.infer<typeof notification>;

export const getNotificationsOutput = z.object({ success: z.literal(true), notifications: z.array(notification) });
export type GetNotificationsOutput = z.infer<typeof getNotificationsOutput>;

/** One email setting (keyed by its name in the answer). */
export const notificationSetting = z.object({ label: z.string(), subtitle: z.string(), enabled: z.boolean() });

export const notificationSettingsOutput = z.object({ success: z.literal(true), settings: z.record(z.string(), notificationSetting) });
export type NotificationSettingsOutput = z.infer<typeof notificationSettingsOutput>;

/** `{settings: [enabled keys]}`; which keys exist is checked by the service (with a message naming them). */
export const saveNotificationSettingsInput = z
  .object({ settings: z.array(z.string().max(64, 'each setting name is at most 64 characters')).max(100, 'at most 100 settings') })
  .strict();
export type SaveNotificationSettingsInput = z.infer<typeof saveNotificationSettingsInput>;
