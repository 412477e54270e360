import { empty, okResponse } from '../../shared/schemas/common';
import {
  alertSettingsOutput,
  getNotificationsOutput,
  notificationSettingsOutput,
  saveNotificationSettingsInput,
  saveQuietHoursInput,
} from '../../shared/schemas/notifications';
import { getAlertSettings, setQuietHours } from './alert-settings';
import { router, scriptProcedure } from '../rpc/trpc';
import { clearUserNotifications, getNotifications } from './service';
import { getNotificationSettings, saveNotificationSettings } from './settings';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const notificationsRouter = router({
  get_notifications: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_notifications',
        summary:
          '`{success, notifications[{message, icon, link, hour}]}`: the open notifications, newest first (50 at most); `hour` is UTC',
      },
    })
    .output(getNotificationsOutput)
    .query(({ ctx }) => getNotifications(ctx, ctx.user.id)),
  clear_notifications: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/clear_notifications',
        summary: '`{success}`: clears every open notification',
      },
    })
    .input(empty.optional())
    .output(okResponse)
    .mutation(({ ctx }) => clearUserNotifications(ctx, ctx.user.id)),
  get_notification_settings: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_notification_settings',
        summary: '`{success, settings{<name>{label, subtitle, enabled}}}`: the email settings',
      },
    })
    .output(notificationSettingsOutput)
    .query(({ ctx }) => getNotificationSettings(ctx.db, ctx.user.id)),
  save_notification_settings: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/save_notification_settings',
        summary:
          '`{success}`: `settings` lists the names of the email settings to turn on; all others go off; an unknown name is refused',
      },
    })
    .input(saveNotificationSettingsInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => saveNotificationSettings(ctx.db, ctx.user.id, input.settings)),
  get_alert_settings: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_alert_settings',
        summary:
          '`{success, quiet_hours{start_hour, end_hour}|null, muted_nodes[]}`: quiet hours (UTC) and the muted nodes',
      },
    })
    .output(alertSettingsOutput)
    .query(({ ctx }) => getAlertSettings(ctx.db, ctx.user.id)),
  save_quiet_hours: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/save_quiet_hours',
        summary:
          '`{success}`: `quiet_hours {start_hour, end_hour}` (whole UTC hours, different) holds notification mail in those hours and sends one summary after; null turns them off',
      },
    })
    .input(saveQuietHoursInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => setQuietHours(ctx.db, ctx.user.id, input.quiet_hours)),
});
