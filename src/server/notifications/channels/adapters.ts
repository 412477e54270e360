import type { AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { Config } from '../../kernel/config';
import { sendDiscord } from './discord';
import { sendTelegram } from './telegram';
import type { ChannelAdapter, ChannelEnv } from './types';
import { sendWebhook } from './webhook';

export const adapters: Record<AlertChannelType, ChannelAdapter> = {
  webhook: sendWebhook,
  telegram: sendTelegram,
  discord: sendDiscord,
};

export function channelEnv(
  config: Pick<Config, 'alertWebhookAllowPrivate' | 'telegramApiBase' | 'discordWebhookBase'>,
  signal?: AbortSignal,
): ChannelEnv {
  return {
    policy: { allowInternal: config.alertWebhookAllowPrivate },
    telegramApiBase: config.telegramApiBase,
    discordWebhookBase: config.discordWebhookBase,
    signal,
  };
}

/** How a channel is named to its owner: "webhook https://example.com/hook", "Telegram chat 123", "Discord webhook 456". */
export function channelLabel(c: { type: string; target: string }): string {
  return c.type === 'webhook'
    ? `webhook ${c.target}`
    : c.type === 'telegram'
      ? `Telegram chat ${c.target}`
      : `Discord webhook ${c.target}`;
}
