import { DeliveryError, postJson } from './outbound';
import type { ChannelAdapter } from './types';

/**
 * Telegram's Bot API `sendMessage` (`<base>/bot<token>/sendMessage`, answers `{ok, description}`).
 * The base comes from TELEGRAM_API_BASE (tests: a local fake). The token is in the path,
 * so no error text here carries the URL.
 */
export const sendTelegram: ChannelAdapter = async (channel, alert, env) => {
  const url = `${env.telegramApiBase}/bot${channel.secret}/sendMessage`;
  const body = JSON.stringify({
    chat_id: channel.target,
    text: `${alert.message}\n${alert.link}`,
    disable_web_page_preview: true,
  });
  // Telegram's own host is ours to trust (configured by the operator), not the customer's.
  const res = await postJson(url, body, {}, { allowInternal: true }, env.signal);
  let answer: { ok?: boolean; description?: string } = {};
  try {
    answer = JSON.parse(res.text) as typeof answer;
  } catch {
    // not JSON: reported by status below
  }
  if (res.status !== 200 || answer.ok !== true)
    throw new DeliveryError(`Telegram answered ${res.status}${answer.description ? `: ${answer.description}` : ''}`);
};
