import {
  emailSettingKeys,
  emailSettings,
  isEmailSettingKey,
  type EmailSettingKey,
} from '../../shared/notification-kinds';
import type { NotificationSettingsOutput } from '../../shared/schemas/notifications';
import type { DB } from '../db/open';
import { fail } from '../kernel/errors';
import { savedSetting, savedSettings, upsertSettings } from './queries';

/** Whether the user gets email for `setting`: what they saved, else the setting's default. */
export async function emailEnabled(db: DB, userId: number, setting: EmailSettingKey): Promise<boolean> {
  const row = await savedSetting(db, userId, setting);
  return row ? row.enabled === 1 : emailSettings[setting].default;
}

export async function getNotificationSettings(db: DB, userId: number): Promise<NotificationSettingsOutput> {
  const saved = new Map((await savedSettings(db, userId)).map((r) => [r.setting, r.enabled === 1]));
  const settings = Object.fromEntries(
    emailSettingKeys.map((key) => {
      const s = emailSettings[key];
      return [key, { label: s.label, subtitle: s.subtitle, enabled: saved.get(key) ?? s.default }];
    }),
  );
  return { success: true, settings };
}

/**
 * `save_notification_settings`: the list names the settings that are on; every other
 * one is off. An unknown name refuses the whole list before anything is written.
 */
export async function saveNotificationSettings(db: DB, userId: number, enabled: string[]) {
  const unknown = [...new Set(enabled.filter((k) => !isEmailSettingKey(k)))];
  if (unknown.length) {
    fail(
      'BAD_REQUEST',
      `Unknown notification setting${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}. Known settings: ${emailSettingKeys.join(', ')}.`,
      'settings',
    );
  }
  const on = new Set(enabled);
  // One statement: a save replaces all settings at once, so parallel saves never mix.
  await upsertSettings(
    db,
    userId,
    emailSettingKeys.map((setting) => ({ setting, enabled: on.has(setting) })),
    Date.now(),
  );
  return { success: true as const };
}

/** The unsubscribe link's effect: one setting off. */
export async function turnOffSetting(db: DB, userId: number, setting: EmailSettingKey): Promise<void> {
  await upsertSettings(db, userId, [{ setting, enabled: false }], Date.now());
}
