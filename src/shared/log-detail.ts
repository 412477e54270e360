import { formatUsdExact } from './money';

/**
 * An operator log line's details in words, for the console and `nodekeep log`: money in
 * dollars (the log keeps micro-dollars), times as UTC dates (it keeps epoch
 * milliseconds), names for ids. The raw JSON stays in the database and the API.
 */

/** Per-day prices, in micro-dollars: "$0.13/day". */
const PRICE_KEYS = new Set(['dedicated', 'cloud', 'campaignDedicated', 'campaignCloud']);
/** Amounts, in micro-dollars: "$25.00". */
const MONEY_KEYS = new Set(['amount', 'balance', 'total', 'debt', 'minimum', 'credit']);
/** How a key reads in a sentence, where its own name does not. */
const WORDS: Record<string, string> = {
  campaignDedicated: 'campaign dedicated',
  campaignCloud: 'campaign cloud',
  user_id: 'user',
  referrer_id: 'referrer',
  referred_user_id: 'referred user',
  bonus_id: 'bonus',
  expires_at: 'expires',
  last_error: 'last error',
  mn_id: 'node',
};

const dollars = (micros: number) => {
  const text = formatUsdExact(micros);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
};

/** "2026-11-28 14:05 UTC" */
const when = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
};

function valueText(key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (PRICE_KEYS.has(key)) return `${dollars(value)}/day`;
    if (MONEY_KEYS.has(key)) return dollars(value);
    // Milliseconds since 1970 between 2001 and 2286: a time.
    if ((key.endsWith('_at') || key === 'at' || key === 'since' || key === 'until') && value > 1e12 && value < 1e13)
      return when(value);
    if (key.endsWith('_id') || key === 'id' || key === 'job' || key === 'check' || key === 'conversation')
      return `#${value}`;
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => valueText(key, v) ?? '').join(', ');
  return JSON.stringify(value);
}

/** "coin dash; dedicated $0.13/day; cloud $0.05/day" (empty when there is nothing to say). */
export function logDetailText(detail: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(detail)) {
    const text = valueText(key, value);
    if (text !== null) parts.push(`${WORDS[key] ?? key.replaceAll('_', ' ')} ${text}`);
  }
  return parts.join('; ');
}

/** Who wrote a log line, as the console's Log page and `nodekeep log` both say it. */
export function logActorText(l: { actor: string; operator: { username: string } | null; actor_name: string }): string {
  if (l.actor === 'operator') return l.operator ? l.operator.username : l.actor_name;
  if (l.actor === 'cli') return `CLI (${l.actor_name})`;
  if (l.actor === 'system') return `platform (${l.actor_name})`;
  return 'unknown';
}
