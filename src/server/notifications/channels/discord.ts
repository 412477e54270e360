import { DeliveryError, postJson } from './outbound';
import type { ChannelAdapter } from './types';

/** Discord webhook URLs: `<base>/<id>/<token>`; the base is DISCORD_WEBHOOK_BASE (tests: a local fake). */
export function discordWebhookId(url: string, base: string): string | null {
  if (!url.startsWith(`${base}/`)) return null;
  const m = /^(\d{5,25})\/([A-Za-z0-9_-]{20,100})$/.exec(url.slice(base.length + 1));
  return m ? m[1] : null;
}

/** POSTs `{content}` to the webhook (the sealed secret is its whole URL); Discord answers 204, errors as `{message}`. */
export const sendDiscord: ChannelAdapter = async (channel, alert, env) => {
  if (!discordWebhookId(channel.secret, env.discordWebhookBase))
    throw new DeliveryError('The Discord webhook URL is not one of Discord’s.');
  const content = `${alert.message}\n${alert.link}`.slice(0, 2000);
  const res = await postJson(
    channel.secret,
    JSON.stringify({ content, allowed_mentions: { parse: [] } }),
    {},
    { allowInternal: true },
    env.signal,
  );
  if (res.status >= 200 && res.status <= 299) return;
  let message = '';
  try {
    message = (JSON.parse(res.text) as { message?: string }).message ?? '';
  } catch {
    // not JSON
  }
  throw new DeliveryError(`Discord answered ${res.status}${message ? `: ${message}` : ''}`);
};
