import { ipVersion } from '../../shared/ip';
import path from 'node:path';
import * as v from 'valibot';
import { parseUsd, type Micros } from '../../shared/money';
import { KEY_FORMAT_HINT, parseSecretsKey, type SecretsKey } from './secrets-key';

/**
 * Configuration comes only from the environment (README "Configuration" table).
 * Every value is checked here once, at start-up; a bad one stops the process with
 * a message that names the variable.
 */
/** A number of seconds (decimals allowed) of at least `min`, as the environment spells it. */
const seconds = (min: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+(\.\d+)?$/, 'must be a number of seconds'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
  );

const port = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.number(),
  v.minValue(0, 'must be 0-65535'),
  v.maxValue(65535, 'must be 0-65535'),
);

const httpUrl = v.pipe(
  v.string(),
  v.url('must be a URL such as http://127.0.0.1:8080'),
  v.check((s) => /^https?:\/\//.test(s), 'must start with http:// or https://'),
);

const smtpUrl = v.pipe(
  v.string(),
  v.url('must be a URL such as smtp://user:pass@127.0.0.1:2525'),
  v.check((s) => /^smtps?:\/\//.test(s), 'must start with smtp:// or smtps://'),
);

const bool = v.pipe(
  v.picklist(['0', '1', 'true', 'false', 'yes', 'no'], 'must be true or false'),
  v.transform((s) => s === '1' || s === 'true' || s === 'yes'),
);

/** false (0 hops), true (1 hop: one proxy in front) or the number of proxies in front, 0-10. */
const trustProxy = v.pipe(
  v.string(),
  v.check((s) => /^(true|false|yes|no|\d{1,2})$/.test(s), 'must be true, false or a number of proxies (0-10)'),
  v.transform((s) => (s === 'true' || s === 'yes' ? 1 : s === 'false' || s === 'no' ? 0 : Number(s))),
  v.maxValue(10, 'must be true, false or a number of proxies (0-10)'),
);

/** "Label=https://url" pairs separated by commas, e.g. "Telegram=https://t.me/x,Discord=https://discord.gg/y". */
const communityLinks = v.pipe(
  v.string(),
  v.transform((s) =>
    s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  ),
  v.check(
    (pairs) => pairs.every((p) => /^[^=]{1,40}=https?:\/\/\S+$/.test(p)),
    'must be Label=https://url pairs separated by commas',
  ),
  v.transform((pairs) =>
    pairs.map((p) => ({ label: p.slice(0, p.indexOf('=')).trim(), url: p.slice(p.indexOf('=') + 1) })),
  ),
);

const ipv4 = v.pipe(v.string(), v.ipv4('must be an IPv4 address such as 203.0.113.7'));
const ipv6 = v.pipe(v.string(), v.ipv6('must be an IPv6 address such as 2001:db8::7'));

const secretsKey = v.pipe(
  v.string(),
  v.check((s) => parseSecretsKey(s) !== null, `must be ${KEY_FORMAT_HINT}`),
  v.transform((s) => parseSecretsKey(s) as SecretsKey),
);

/** Never echoed back in a configuration error: a near-miss of a secret is still a secret. */
const SECRET_VARIABLES = new Set([
  'SECRETS_KEY',
  'OPERATOR_TOKEN',
  'MARKET_API_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/** Card payments need all three Stripe keys; any other mix is a mistake, named at start-up. */
const STRIPE_KEYS = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/** Where the Stripe SDK sends its calls (STRIPE_API_BASE): a self-hosted gateway or the test fake. */
export type StripeApiBase = { host: string; port: number; protocol: 'http' | 'https' };

export type StripeConfig = {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  apiBase: StripeApiBase | null;
};

function stripeConfig(e: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
}): StripeConfig | null {
  const set = STRIPE_KEYS.filter((k) => e[k] !== undefined);
  if (set.length === 0) {
    if (e.STRIPE_API_BASE)
      throw new ConfigError(
        'Invalid configuration:\n  STRIPE_API_BASE: needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      );
    return null;
  }
  if (set.length < STRIPE_KEYS.length) {
    const missing = STRIPE_KEYS.filter((k) => e[k] === undefined);
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')}: card payments need all of ${STRIPE_KEYS.join(', ')} (or none)`,
    );
  }
  let apiBase: StripeApiBase | null = null;
  if (e.STRIPE_API_BASE) {
    const u = new URL(e.STRIPE_API_BASE);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    apiBase = {
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443,
      protocol,
    };
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY!,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    apiBase,
  };
}

const emailAddress = v.pipe(v.string(), v.email());

/**
 * A mail sender as operators write one: `noreply@example.com`, or with the name mail
 * programs show, `Nodekeep <noreply@example.com>` (nodemailer takes both). No line breaks:
 * the value goes into a header.
 */
function isSender(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  // An unquoted name may not hold what a mail parser reads as a list or a group (, ; :) or an address (@ < >).
  const named = /^\s*(?:"[^"\\]*"|[^"<>,;:@()[\]\\]*?)\s*<([^<>\s]+)>\s*$/.exec(value);
  return v.is(emailAddress, named ? named[1] : value);
}

const EnvSchema = v.object({
  // An IP address ([v6] too) or a host name. A name whose last label is a number is no
  // name but a mistyped address (0.0.0.0.1): it was looked up in DNS at start and failed
  // after the migrations with the variable unnamed.
  HOST: v.optional(
    v.pipe(
      v.string(),
      v.transform((h) => (/^\[.*\]$/.test(h) ? h.slice(1, -1) : h)),
      v.check(
        (h) =>
          ipVersion(h) !== 0 ||
          (/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(h) &&
            !/(^|\.)\d+$/.test(h)),
        'must be an IP address or a host name to listen on (127.0.0.1: this machine only; 0.0.0.0: every IPv4 address; ::, every address)',
      ),
    ),
    '127.0.0.1',
  ),
  PORT: v.optional(port, '8080'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), './data'),
  // Where the server's daily backups go (default: DATA_DIR/backups), and how many days they are kept (0: no scheduled backups).
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  BACKUP_KEEP_DAYS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'must be a whole number of days (0 turns scheduled backups off)'),
      v.transform(Number),
    ),
    '14',
  ),
  PUBLIC_URL: v.optional(httpUrl),
  SMTP_URL: v.optional(smtpUrl),
  MAIL_FROM: v.optional(
    v.pipe(
      v.string(),
      v.check(isSender, 'must be an email address, or a name and an address: Nodekeep <noreply@example.com>'),
    ),
    'no-reply@nodekeep.local',
  ),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error'], 'must be debug, info, warn or error'), 'info'),
  STRIPE_SECRET_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_... or sk_test_...)'),
    ),
  ),
  STRIPE_PUBLISHABLE_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_live_... or pk_test_...)'),
    ),
  ),
  STRIPE_WEBHOOK_SECRET: v.optional(
    v.pipe(v.string(), v.regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_...)')),
  ),
  STRIPE_API_BASE: v.optional(httpUrl),
  TRUST_PROXY: v.optional(trustProxy, 'false'),
  MARKET_PROVIDER: v.optional(v.picklist(['demo', 'coingecko'], 'must be demo or coingecko'), 'demo'),
  MARKET_API_URL: v.optional(httpUrl, 'https://api.coingecko.com/api/v3'),
  MARKET_API_KEY: v.optional(v.string(), ''),
  MARKET_REFRESH_MINUTES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(5, 'must be 5-15'),
      v.maxValue(15, 'must be 5-15'),
    ),
    '10',
  ),
  COIN_LOGO_URL: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => s.startsWith('/') || /^https?:\/\//.test(s), 'must be a path such as /logos or an http(s) URL'),
    ),
    '/logos',
  ),
  DAEMON_PROFILES_FILE: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  DAEMON_FACTS_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  IMAGE_RECIPES_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  MONITOR_NODE_SECONDS: v.optional(seconds(0.1), '60'),
  MONITOR_NETWORK_SECONDS: v.optional(seconds(0.1), '900'),
  DEPOSIT_POLL_SECONDS: v.optional(seconds(0.1), '30'),
  ALERT_DOWN_SECONDS: v.optional(seconds(0.1), '180'),
  // Fractions allowed (tests: 0.05 is 3 seconds).
  SYNC_STALL_MINUTES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, 'must be a number of minutes'),
      v.transform(Number),
      v.minValue(0.01, 'must be at least 0.01'),
    ),
    '60',
  ),
  // Paid once per user at email verification (src/server/billing/README.md); 0: none.
  SIGNUP_CREDIT_USD: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a USD amount such as 5 or 2.50 (0 to 999999, at most 6 decimals)'),
      v.transform((t) => parseUsd(t)),
    ),
    '0',
  ),
  MAX_NODES_PER_USER: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
    ),
    '100',
  ),
  // An account with no paid deposit (src/server/billing/README.md): nodes it may run at once.
  FREE_NODE_LIMIT: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number)), '1'),
  // The share of each plan's slots that nodes of such accounts may take together, as a percent (`10%`).
  FREE_CAPACITY_SHARE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}(\.\d{1,2})?%$/, 'must be a percent such as 10% or 2.5% (0% to 100%)'),
      v.transform((t) => Math.round(Number(t.slice(0, -1)) * 100)),
      v.maxValue(10_000, 'must be at most 100%'),
    ),
    '10%',
  ),
  MONITOR_CONCURRENCY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
    ),
    '32',
  ),
  OPERATOR_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  FLEET_SIMULATOR: v.optional(bool, 'false'),
  FLEET_LOCAL_IPV4: v.optional(ipv4),
  FLEET_LOCAL_IPV6: v.optional(ipv6),
  SUPPORT_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
  COMMUNITY_LINKS: v.optional(communityLinks),
  SESSION_TTL_DAYS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
    ),
    '30',
  ),
  SECRETS_KEY: v.optional(secretsKey),
  ALERT_WEBHOOK_ALLOW_PRIVATE: v.optional(bool, 'false'),
  TELEGRAM_API_BASE: v.optional(httpUrl, 'https://api.telegram.org'),
  DISCORD_WEBHOOK_BASE: v.optional(httpUrl, 'https://discord.com/api/webhooks'),
  ALERT_CHANNEL_MAX_FAILURES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'must be 1-100'),
      v.maxValue(100, 'must be 1-100'),
    ),
    '10',
  ),
  // A host with less free disk than this alerts the operators and takes no new nodes; 0: off.
  HOST_DISK_MIN_FREE_GB: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}(\.\d{1,3})?$/, 'must be a number of gigabytes such as 20 or 2.5 (0 turns the check off)'),
      v.transform(Number),
    ),
    '20',
  ),
  // When support answers the chat live (UTC); outside these hours the widget takes messages answered by email.
  SUPPORT_HOURS_UTC: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must be HH:MM-HH:MM in UTC, such as 07:00-21:00'),
      v.transform((t) => t.split('-').map((hm) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3)))),
      v.check(
        ([from, to]) => from < to && to <= 1440,
        'must start before it ends, within one UTC day (00:00-24:00 for always)',
      ),
    ),
    '07:00-21:00',
  ),
  // How long an upgraded daemon has to answer on its new version, synced, before its batch is rolled back.
  ROLLOUT_HEALTH_SECONDS: v.optional(seconds(0.1), '600'),
  // How often running daemon upgrades are looked at (a batch runs to its end once begun).
  ROLLOUT_TICK_SECONDS: v.optional(seconds(0.05), '5'),
  HOST_CHECK_SECONDS: v.optional(seconds(0.1), '60'),
  ALERT_RETRY_SECONDS: v.optional(seconds(0.01), '30'),
});

export type Config = {
  host: string;
  port: number;
  dataDir: string;
  dbFile: string;
  /** BACKUP_DIR (default DATA_DIR/backups) and BACKUP_KEEP_DAYS (0: no scheduled backups). */
  backupDir: string;
  backupKeepDays: number;
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Publishable key handed to the browser (the profile's stripe_public_key); empty while card payments are off. */
  stripePublicKey: string;
  /** Card payments through Stripe Checkout; null (all three keys unset): card payments are off. */
  stripe: StripeConfig | null;
  /** How many proxies of ours stand in front and append to X-Forwarded-For; 0 = none. */
  trustProxy: number;
  sessionTtlMs: number;
  marketProvider: 'demo' | 'coingecko';
  marketApiUrl: string;
  marketApiKey: string;
  marketRefreshMinutes: number;
  /** Base path or URL of coin logos: `${coinLogoUrl}/${coinId}.svg`. */
  coinLogoUrl: string;
  /** catalog/daemons.json unless DAEMON_PROFILES_FILE names another. */
  daemonProfilesFile: string | null;
  /** catalog/daemon-facts unless DAEMON_FACTS_DIR names another: what each profile's source says. */
  daemonFactsDir: string | null;
  /** catalog/images (one folder of image recipe per profile) unless IMAGE_RECIPES_DIR names another. */
  imageRecipesDir: string | null;
  monitorNodeMs: number;
  monitorNetworkMs: number;
  monitorConcurrency: number;
  /** A node is alerted down after failing its checks this long (issue 9: 3 minutes). */
  alertDownMs: number;
  syncStallMs: number;
  /** How often the deposit daemons are read (new payments, confirmations, reorgs). */
  depositPollMs: number;
  /** Nodes one account may hold at once (set up, live or being deleted), so one customer cannot take every slot. */
  maxNodesPerUser: number;
  /** Nodes a free account (paid less than PAYING_MINIMUM, net) may run at once (FREE_NODE_LIMIT). */
  freeNodeLimit: number;
  /** FREE_CAPACITY_SHARE in hundredths of a percent (10% is 1000): whole numbers, no float rounding. */
  freeCapacityBasisPoints: number;
  /** SIGNUP_CREDIT_USD in micro-dollars. */
  signupCreditMicros: Micros;
  /** Bearer token for /metrics; empty disables it. */
  operatorToken: string;
  /** Whether the coin-daemon simulator may serve nodes (demos and tests); off in production. */
  fleetSimulator: boolean;
  /** Public addresses of this machine for nodes it runs itself; null: detected from its interfaces. */
  fleetLocalIpv4: string | null;
  fleetLocalIpv6: string | null;
  /** Where customers write to; empty hides the contact links. */
  supportEmail: string;
  /** Community links shown on the error app, the not-found page and the footers. */
  communityLinks: { label: string; url: string }[];
  /** Key that seals stored secrets (SECRETS_KEY); null: `secrets.key` in the data folder. */
  secretsKey: SecretsKey | null;
  /** Whether alert webhooks may reach loopback and private addresses (tests, closed networks); off in production. */
  alertWebhookAllowPrivate: boolean;
  /** Telegram Bot API base (no trailing slash). */
  telegramApiBase: string;
  /** Discord webhook URLs must start with this (no trailing slash). */
  discordWebhookBase: string;
  /** Failed deliveries in a row after which a channel is turned off. */
  alertChannelMaxFailures: number;
  /** First retry of a failed delivery after this long, doubling each time. */
  alertRetryMs: number;
  /** HOST_DISK_MIN_FREE_GB in bytes (1 GB = 10^9 bytes); 0: hosts' disks are not checked against a threshold. */
  hostDiskMinFreeBytes: number;
  /** How often each host is asked for its free disk. */
  hostCheckMs: number;
  /** ROLLOUT_HEALTH_SECONDS and ROLLOUT_TICK_SECONDS in ms. */
  rolloutHealthMs: number;
  rolloutTickMs: number;
  /** Support chat hours, minutes of the UTC day: [from, to). */
  supportHours: { from: number; to: number };
  /** Where the built client lives; tests and the bundle point it at dist/client. */
  clientDir: string;
};

export class ConfigError extends Error {}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  // Empty strings count as unset, as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([k, val]) => k in EnvSchema.entries && val !== ''));
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const lines = parsed.issues.map((i) => {
      const name = v.getDotPath(i) ?? '?';
      return `${name}: ${i.message}${SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(i.input)})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.output;
  const stripe = stripeConfig(e);
  const dataDir = path.resolve(e.DATA_DIR);
  const shownHost = e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    dbFile: path.join(dataDir, 'nodekeep.sqlite'),
    backupDir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(dataDir, 'backups'),
    backupKeepDays: e.BACKUP_KEEP_DAYS,
    publicUrl: (e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    stripePublicKey: stripe?.publishableKey ?? '',
    stripe,
    trustProxy: e.TRUST_PROXY,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    marketProvider: e.MARKET_PROVIDER,
    marketApiUrl: e.MARKET_API_URL,
    marketApiKey: e.MARKET_API_KEY,
    marketRefreshMinutes: e.MARKET_REFRESH_MINUTES,
    coinLogoUrl: e.COIN_LOGO_URL.replace(/\/+$/, ''),
    daemonProfilesFile: e.DAEMON_PROFILES_FILE ? path.resolve(e.DAEMON_PROFILES_FILE) : null,
    daemonFactsDir: e.DAEMON_FACTS_DIR ? path.resolve(e.DAEMON_FACTS_DIR) : null,
    imageRecipesDir: e.IMAGE_RECIPES_DIR ? path.resolve(e.IMAGE_RECIPES_DIR) : null,
    monitorNodeMs: e.MONITOR_NODE_SECONDS * 1000,
    monitorNetworkMs: e.MONITOR_NETWORK_SECONDS * 1000,
    monitorConcurrency: e.MONITOR_CONCURRENCY,
    alertDownMs: e.ALERT_DOWN_SECONDS * 1000,
    syncStallMs: e.SYNC_STALL_MINUTES * 60_000,
    depositPollMs: e.DEPOSIT_POLL_SECONDS * 1000,
    maxNodesPerUser: e.MAX_NODES_PER_USER,
    freeNodeLimit: e.FREE_NODE_LIMIT,
    freeCapacityBasisPoints: e.FREE_CAPACITY_SHARE,
    signupCreditMicros: e.SIGNUP_CREDIT_USD,
    operatorToken: e.OPERATOR_TOKEN ?? '',
    fleetSimulator: e.FLEET_SIMULATOR,
    fleetLocalIpv4: e.FLEET_LOCAL_IPV4 ?? null,
    fleetLocalIpv6: e.FLEET_LOCAL_IPV6 ?? null,
    supportEmail: e.SUPPORT_EMAIL ?? '',
    communityLinks: e.COMMUNITY_LINKS ?? [],
    secretsKey: e.SECRETS_KEY ?? null,
    alertWebhookAllowPrivate: e.ALERT_WEBHOOK_ALLOW_PRIVATE,
    telegramApiBase: e.TELEGRAM_API_BASE.replace(/\/+$/, ''),
    discordWebhookBase: e.DISCORD_WEBHOOK_BASE.replace(/\/+$/, ''),
    alertChannelMaxFailures: e.ALERT_CHANNEL_MAX_FAILURES,
    alertRetryMs: Math.round(e.ALERT_RETRY_SECONDS * 1000),
    hostDiskMinFreeBytes: Math.round(e.HOST_DISK_MIN_FREE_GB * 1e9),
    hostCheckMs: Math.round(e.HOST_CHECK_SECONDS * 1000),
    rolloutHealthMs: Math.round(e.ROLLOUT_HEALTH_SECONDS * 1000),
    rolloutTickMs: Math.round(e.ROLLOUT_TICK_SECONDS * 1000),
    supportHours: { from: e.SUPPORT_HOURS_UTC[0], to: e.SUPPORT_HOURS_UTC[1] },
    clientDir: path.resolve('dist/client'),
    ...overrides,
  };
}
