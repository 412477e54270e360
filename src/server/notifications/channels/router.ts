import {
  addAlertChannelInput,
  addAlertChannelOutput,
  alertChannelId,
  alertChannelsOutput,
  saveAlertChannelInput,
  saveAlertChannelOutput,
  testAlertChannelOutput,
} from '../../../shared/schemas/alert-channels';
import { okResponse } from '../../../shared/schemas/common';
import { router, scriptProcedure } from '../../rpc/trpc';
import { addAlertChannel, getAlertChannels, removeAlertChannel, saveAlertChannel, testAlertChannel } from './service';

// Not in the spec (src/server/notifications/README.md): named as the spec names its calls.
export const alertChannelsRouter = router({
  get_alert_channels: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_alert_channels',
        summary:
          '`{success, channels[{id, type, target, enabled, failures, last_error, disabled_reason, created_at}]}`: your alert channels',
      },
    })
    .output(alertChannelsOutput)
    .query(({ ctx }) => getAlertChannels(ctx, ctx.user.id)),
  add_alert_channel: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/add_alert_channel',
        summary:
          '`{success, channel, secret?}`: `{type: "webhook", url}`, `{type: "telegram", bot_token, chat_id}` or `{type: "discord", url}`; a webhook\'s signing secret is answered this once',
      },
    })
    .input(addAlertChannelInput)
    .output(addAlertChannelOutput)
    .mutation(({ ctx, input }) => addAlertChannel(ctx, ctx.user.id, input)),
  save_alert_channel: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/save_alert_channel',
        summary: '`{success, channel}`: `{id, enabled}` turns a channel on (its failure count starts again) or off',
      },
    })
    .input(saveAlertChannelInput)
    .output(saveAlertChannelOutput)
    .mutation(({ ctx, input }) => saveAlertChannel(ctx, ctx.user.id, input.id, input.enabled)),
  delete_alert_channel: scriptProcedure
    .meta({
      rest: { method: 'POST', path: '/api/delete_alert_channel', summary: '`{success}`: `{id}` deletes the channel' },
    })
    .input(alertChannelId)
    .output(okResponse)
    .mutation(({ ctx, input }) => removeAlertChannel(ctx, ctx.user.id, input.id)),
  test_alert_channel: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/test_alert_channel',
        summary:
          "`{success, message}`: `{id}` sends a test alert; `success` false with the remote's error when it was not delivered",
      },
    })
    .input(alertChannelId)
    .output(testAlertChannelOutput)
    .mutation(({ ctx, input }) => testAlertChannel(ctx, ctx.user.id, input.id)),
});
