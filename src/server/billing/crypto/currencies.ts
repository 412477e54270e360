import * as v from 'valibot';
import type { DepositCurrency } from '../../db/schema';
import type { SecretBox } from '../../secrets/box';
import { BadKeyError, deriveAddress, parseAddressType, parseXpub } from './derive';
import {
  bitcoinSource,
  cookieAuth,
  moneroSource,
  parseRpcUrl,
  type BitcoinWatchSource,
  type MoneroWatchSource,
  type RpcTarget,
} from './sources';

/** The spec's order of the deposit list (platform-and-account.md section 9): these first, the rest by label. */
export const PREFERRED = ['Bitcoin', 'Litecoin', 'Dash', 'SysCoin', 'Firo', 'Beldex', 'BLOCX.', 'Raptoreum', 'Neoxa'];

export function depositOrder<T extends { label: string }>(list: T[]): T[] {
  const rank = (l: string) => {
    const i = PREFERRED.findIndex((p) => p.toLowerCase() === l.toLowerCase());
    return i < 0 ? PREFERRED.length : i;
  };
  return [...list].sort((a, b) => rank(a.label) - rank(b.label) || a.label.localeCompare(b.label));
}

/** The sealed secret's binding: the RPC password (Bitcoin family) or the view-only wallet's password (Monero family). */
export const passwordAad = (id: string) => `deposit-currency:${id}:password`;

/** How many unused addresses the daemon watches beyond the last one handed out. */
export const IMPORT_AHEAD = 20;
const RPC_TIMEOUT_MS = 15_000;

// The operator's `deposits add` flags, as typed: checked here before anything is written.
const Id = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'the id is 1-32 lowercase letters, digits and dashes'),
);
const Text = (max: number, what: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, `${what} is required`),
    v.maxLength(max, `${what} is at most ${max} characters`),
  );
const Int = (min: number, max: number, what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `${what} must be a whole number`),
    v.transform(Number),
    v.minValue(min, `${what} must be at least ${min}`),
    v.maxValue(max, `${what} must be at most ${max}`),
  );
const Usd = v.pipe(
  v.string(),
  v.regex(/^\d{1,9}(\.\d{1,6})?$/, 'the minimum is a USD amount such as 0.01'),
  v.transform((s) => {
    const [w, f = ''] = s.split('.');
    return Number(w) * 1_000_000 + Number(f.padEnd(6, '0'));
  }),
  v.minValue(10_000, 'the minimum deposit is at least $0.01'),
);

export const CurrencyFlags = v.pipe(
  v.object({
    id: Id,
    label: Text(48, 'the label'),
    ticker: v.pipe(v.string(), v.regex(/^[A-Za-z0-9.]{1,12}$/, 'the ticker is 1-12 letters or digits')),
    icon: v.optional(
      v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/, 'the icon is a coin id (lowercase letters, digits, dashes)')),
    ),
    confirmations: Int(1, 1000, 'confirmations'),
    minimum: v.optional(Usd, '0.01'),
    'price-coin': v.optional(Id),
    xpub: v.optional(v.string()),
    address: v.optional(v.string()),
    'rpc-url': v.optional(v.string()),
    'rpc-user': v.optional(Text(128, 'the RPC user')),
    'rpc-password': v.optional(Text(256, 'the RPC password')),
    'rpc-cookie': v.optional(Text(1024, 'the cookie file')),
    wallet: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'the wallet name is letters, digits, _ . -')),
    ),
    'monero-wallet-rpc': v.optional(v.string()),
    'wallet-password': v.optional(v.pipe(v.string(), v.maxLength(256))),
  }),
  v.check(
    (f) => !!f['monero-wallet-rpc'] !== !!(f.xpub || f['rpc-url']),
    'give either --xpub with --rpc-url (Bitcoin family) or --monero-wallet-rpc (Monero family)',
  ),
  v.check(
    (f) => !!f['monero-wallet-rpc'] || (!!f.xpub && !!f['rpc-url'] && !!f.address),
    'a Bitcoin-family currency needs --xpub, --address and --rpc-url',
  ),
  v.check((f) => !f['rpc-password'] === !f['rpc-user'], 'give --rpc-user and --rpc-password together'),
  v.check((f) => !(f['rpc-password'] && f['rpc-cookie']), 'give --rpc-user/--rpc-password or --rpc-cookie, not both'),
);
export type CurrencyFlags = v.InferOutput<typeof CurrencyFlags>;

/** Checks what only code can check (key, address type, URL); returns the first problem or null. */
export function sourceProblem(f: CurrencyFlags): string | null {
  try {
    parseRpcUrl(f['monero-wallet-rpc'] ?? f['rpc-url']!);
    if (f.xpub) {
      parseXpub(f.xpub);
      deriveAddress(f.xpub, parseAddressType(f.address!), 0);
    }
    return null;
  } catch (err) {
    return err instanceof BadKeyError || err instanceof Error ? err.message : String(err);
  }
}

/** How to call a currency's daemon: its URL and credentials (the sealed password opened). */
export function currencyTarget(box: Pick<SecretBox, 'open'>, c: DepositCurrency): RpcTarget {
  const endpoint = parseRpcUrl(c.rpc_url);
  if (c.kind === 'monero') return { endpoint, timeoutMs: RPC_TIMEOUT_MS };
  if (c.rpc_cookie) return { endpoint, auth: cookieAuth(c.rpc_cookie), timeoutMs: RPC_TIMEOUT_MS };
  if (c.rpc_user && c.rpc_password) {
    const auth = { user: c.rpc_user, password: box.open(c.rpc_password, passwordAad(c.id)) };
    return { endpoint, auth: () => auth, timeoutMs: RPC_TIMEOUT_MS };
  }
  return { endpoint, timeoutMs: RPC_TIMEOUT_MS };
}

/** The daemons behind a currency; tests may replace them (a garbage-replying server is just another URL). */
export type Sources = {
  bitcoin(c: DepositCurrency): BitcoinWatchSource;
  monero(c: DepositCurrency): MoneroWatchSource;
};

export function daemonSources(box: Pick<SecretBox, 'open'>): Sources {
  return {
    bitcoin: (c) => bitcoinSource(currencyTarget(box, c), c.wallet ?? `nodekeep-${c.id}`),
    monero: (c) =>
      moneroSource(
        currencyTarget(box, c),
        c.wallet
          ? { file: c.wallet, password: c.rpc_password ? box.open(c.rpc_password, passwordAad(c.id)) : '' }
          : null,
      ),
  };
}
