import type { AltPayment, PendingDeposit } from '../../../shared/schemas/billing';
import type { Context } from '../../rpc/context';
import type { DepositCurrency } from '../../db/schema';
import { AppError } from '../../kernel/errors';
import { hourOf } from '../../notifications/raise';
import { daemonSources, depositOrder, type Sources } from './currencies';
import { deriveAddress, parseAddressType } from './derive';
import {
  findAddress,
  findCurrency,
  insertAddress,
  listCurrencies,
  pendingOf,
  takeNextIndex,
  userAddresses,
} from './queries';
import { formatCoins } from '../../../shared/coin-amount';

type Ctx = Pick<Context, 'db' | 'secrets' | 'log'>;

export const UNKNOWN_CURRENCY = 'This currency is not accepted for deposits.';
export const ADDRESS_UNAVAILABLE = 'A deposit address could not be made right now. Please try again in a little while.';

/** `get_alt_payments`: the accepted currencies, preferred coins first, each with the user's address once made. */
export async function getAltPayments(ctx: Pick<Context, 'db'>, userId: number): Promise<AltPayment[]> {
  const [currencies, mine] = await Promise.all([
    listCurrencies(ctx.db, { enabledOnly: true }),
    userAddresses(ctx.db, userId),
  ]);
  const addr = new Map(mine.map((a) => [a.currency_id, a.address]));
  return depositOrder(currencies).map((c) => ({
    id: c.id,
    label: c.label,
    ticker: c.ticker,
    ...(c.icon_id ? { icon_id: c.icon_id } : {}),
    address: addr.get(c.id) ?? '',
    max_confirmations: c.confirmations,
  }));
}

/** The user's deposits seen on chain and not credited yet (`get_transactions.pending`). */
export async function pendingDeposits(ctx: Pick<Context, 'db'>, userId: number): Promise<PendingDeposit[]> {
  const rows = await pendingOf(ctx.db, userId);
  return rows.map((r) => ({
    currency_label: r.label,
    confirmations: Math.min(r.confirmations, r.max_confirmations),
    max_confirmations: r.max_confirmations,
    amount: Number(formatCoins(BigInt(r.amount), r.decimals)),
    date: hourOf(r.seen_at),
  }));
}

// Monero subaddresses come from the wallet RPC (a network call, never inside a
// transaction): concurrent requests of one user for one currency share one call.
// The wallet RPC serves one call at a time anyway; queue ours per currency.
// Both per database: two servers in one process (tests) have their own users and wallets.
type WalletCalls = { inFlight: Map<string, Promise<string>>; queue: Map<string, Promise<unknown>> };
const walletCallsByDb = new WeakMap<object, WalletCalls>();
function walletCalls(db: object): WalletCalls {
  let calls = walletCallsByDb.get(db);
  if (!calls) walletCallsByDb.set(db, (calls = { inFlight: new Map(), queue: new Map() }));
  return calls;
}

/**
 * `generate_wallet {currency}`: the user's own address for the currency, made once and
 * returned again after. Bitcoin family: the next index of the operator's key, taken and
 * stored in one immediate transaction (the single writer), so concurrent requests never
 * share an index and a user never gets two. Monero family: a new subaddress of the
 * view-only wallet, stored unless a concurrent request stored one first.
 */
export async function generateWallet(
  ctx: Ctx,
  userId: number,
  currencyId: string,
  sources: Sources = daemonSources(ctx.secrets),
): Promise<string> {
  const c = await findCurrency(ctx.db, currencyId);
  if (!c || c.enabled !== 1) throw new AppError('NOT_FOUND', UNKNOWN_CURRENCY, 'currency');
  const have = await findAddress(ctx.db, c.id, userId);
  if (have) return have.address;
  if (c.kind === 'bitcoin') return derivedAddress(ctx, c, userId);
  const key = `${c.id}:${userId}`;
  const { inFlight } = walletCalls(ctx.db);
  let p = inFlight.get(key);
  if (!p) {
    p = subaddress(ctx, c, userId, sources).finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}

async function derivedAddress(ctx: Ctx, c: DepositCurrency, userId: number): Promise<string> {
  const type = parseAddressType(c.address_type ?? '');
  return ctx.db.transaction().execute(async (trx) => {
    const have = await findAddress(trx, c.id, userId);
    if (have) return have.address;
    const idx = await takeNextIndex(trx, c.id);
    const address = deriveAddress(c.xpub!, type, idx);
    await insertAddress(trx, { currency_id: c.id, user_id: userId, address, idx });
    return address;
  });
}

/**
 * A wallet RPC made again from the view key (after a loss, or another wallet file) counts
 * its subaddresses from 1 again: what it hands out may be another user's stored address
 * (or index). Those are passed over, each a new `create_address`, up to this many.
 */
const MAX_TAKEN_SUBADDRESSES = 50;

async function subaddress(ctx: Ctx, c: DepositCurrency, userId: number, sources: Sources): Promise<string> {
  for (let attempt = 0; attempt < MAX_TAKEN_SUBADDRESSES; attempt++) {
    const sub = await newSubaddress(ctx, c, userId, sources);
    await ctx.db
      .transaction()
      .execute((trx) =>
        insertAddress(trx, { currency_id: c.id, user_id: userId, address: sub.address, idx: sub.index }),
      );
    // The user's own (this one, or one a concurrent request stored first); otherwise the
    // address or index is another user's and the user still has none.
    const mine = await findAddress(ctx.db, c.id, userId);
    if (mine) return mine.address;
    ctx.log.warn('deposit subaddress already given to another user', { currency: c.id, index: sub.index });
  }
  ctx.log.error('the wallet RPC keeps handing out subaddresses already given: was the view-only wallet made again?', {
    currency: c.id,
  });
  throw new AppError('SERVICE_UNAVAILABLE', ADDRESS_UNAVAILABLE);
}

async function newSubaddress(
  ctx: Ctx,
  c: DepositCurrency,
  userId: number,
  sources: Sources,
): Promise<{ address: string; index: number }> {
  const walletQueue = walletCalls(ctx.db).queue;
  const prev = walletQueue.get(c.id) ?? Promise.resolve();
  const made = prev.catch(() => {}).then(() => sources.monero(c).createAddress(`nodekeep user ${userId}`));
  walletQueue.set(c.id, made);
  try {
    return await made;
  } catch (err) {
    ctx.log.warn('deposit subaddress not made', { currency: c.id, err: (err as Error).message });
    throw new AppError('SERVICE_UNAVAILABLE', ADDRESS_UNAVAILABLE);
  } finally {
    if (walletQueue.get(c.id) === made) walletQueue.delete(c.id);
  }
}
