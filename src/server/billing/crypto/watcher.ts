import type { AppDeps } from '../../rpc/context';
import type { DepositCurrency, DepositsTable } from '../../db/schema';
import { creditDeposit } from '../deposit';
import { insertEvent } from '../../events/outbox';
import type { JobRunner } from '../../jobs/runner';
import { findQuote } from '../../market/quotes';
import { afterRaise, raise } from '../../notifications/raise';
import { formatCoins } from '../../../shared/coin-amount';
import { atomicToMicros } from './amounts';
import { daemonSources, IMPORT_AHEAD, type Sources } from './currencies';
import { parseAddressType, receiveDescriptor } from './derive';
import {
  depositsInState,
  findCurrency,
  insertDeposit,
  listCurrencies,
  ownersOf,
  setCursor,
  setImported,
  updateDeposit,
} from './queries';
import type { ChainPayment } from './sources';

type Deps = Pick<AppDeps, 'db' | 'log' | 'hub' | 'mail' | 'secrets'>;

/** How far before an import its successor rescans (block timestamps may lag the clock). */
export const RESCAN_SLACK_MS = 2 * 3600_000;

/**
 * A quote older than this does not price a deposit: it waits for the next refresh. The
 * refresher runs every 5-15 minutes; an hour is several missed refreshes, and no more
 * than an hour of a price's fall can be deposited at the price before it.
 */
export const QUOTE_MAX_AGE_MS = 3600_000;

/**
 * One look at every enabled currency's daemon, in turn. A daemon that is down or answers
 * garbage is logged and skipped (its deposits wait, nothing is written for it); the others
 * go on. The look then fails, naming the enabled ones, so a daemon that stays down shows
 * as a failing job (/readyz, the console overview) and not only in the log.
 */
export async function watchDeposits(
  deps: Deps,
  signal?: AbortSignal,
  sources: Sources = daemonSources(deps.secrets),
): Promise<void> {
  // A disabled currency is no longer offered, but what was paid to it is still watched and credited.
  const failed: string[] = [];
  for (const c of await listCurrencies(deps.db, { enabledOnly: false })) {
    signal?.throwIfAborted();
    try {
      await watchCurrency(deps, c.id, sources);
    } catch (err) {
      deps.log.warn('deposit watch failed', { currency: c.id, err: (err as Error).message });
      // A disabled currency is still watched for what was paid to it, but one the operator
      // turned off (often because its daemon is gone) does not keep the job failing.
      if (c.enabled) failed.push(`${c.id} (${(err as Error).message})`);
    }
  }
  if (failed.length) throw new Error(`no answer read from ${failed.join(', ')}`);
}

/** One currency: read the chain, then apply what it shows in one transaction. Throws when the daemon fails. */
export async function watchCurrency(
  deps: Deps,
  currencyId: string,
  sources: Sources = daemonSources(deps.secrets),
): Promise<void> {
  let c = (await findCurrency(deps.db, currencyId))!;
  if (c.kind === 'bitcoin') {
    const src = sources.bitcoin(c);
    await src.ensureWallet();
    // Keep the daemon watching IMPORT_AHEAD addresses past the last one handed out. A
    // larger import rescans the chain from `watch_from`: the addresses it adds were all
    // handed out after the previous import, so nothing was paid to them before it (two
    // hours of slack for block times). The listing then starts over to show what it found.
    const want = c.next_index + IMPORT_AHEAD;
    if (c.imported_to < want) {
      const importedAt = Date.now();
      await src.importRange(
        receiveDescriptor(c.xpub!, parseAddressType(c.address_type!)),
        want,
        Math.floor(c.watch_from / 1000),
      );
      await setImported(deps.db, c.id, want, importedAt - RESCAN_SLACK_MS);
      c = (await findCurrency(deps.db, currencyId))!;
    }
    const snap = await src.listSince(c.cursor, c.confirmations);
    await apply(deps, c, snap.payments, snap.removed, snap.cursor);
  } else {
    await apply(deps, c, await sources.monero(c).incoming(), new Set(), null);
  }
}

type Effect = { userId: number; kind: 'pending' | 'credited' | 'changed'; atomic?: bigint; micros?: number };

/**
 * A payment worth less than the currency's minimum at the current price: it will not be
 * credited (unless the price rises by its confirmations), so "credited once confirmed"
 * is not said of it. Without a usable price nothing is known, and it is told.
 */
function belowMinimum(c: DepositCurrency, atomic: bigint, quote: { price_usd: number } | null): boolean {
  if (!quote) return false;
  try {
    return atomicToMicros(atomic, c.decimals, quote.price_usd) < c.minimum;
  } catch {
    return false; // worth more than the ledger can hold: certainly not dust
  }
}

async function apply(
  deps: Deps,
  c: DepositCurrency,
  seen: ChainPayment[],
  removed: Set<string>,
  cursor: string | null,
): Promise<void> {
  const now = Date.now();
  const effects: Effect[] = [];
  // A deposit at its threshold that waits for a price keeps the listing where it is: the
  // next cursor would pass its block, and a pending deposit missing from the listing is
  // taken for one that left the chain.
  let waiting = false;
  await deps.db.transaction().execute(async (trx) => {
    const owners = await ownersOf(trx, c.id, [...new Set(seen.map((p) => p.address))]);
    const current = new Map<string, ChainPayment>();
    for (const p of seen) if (p.confirmations >= 0 && owners.has(p.address)) current.set(`${p.txid}:${p.vout}`, p);
    const quote = await findQuote(trx, c.price_coin);
    // The demo provider's figures are made up (an install without a price API): they never price real money.
    const usable =
      quote && quote.provider !== 'demo' && now - quote.updated_at <= QUOTE_MAX_AGE_MS && quote.price_usd > 0
        ? quote
        : null;

    const known = new Map(
      (await depositsInState(trx, c.id, ['pending', 'removed'])).map((d) => [`${d.txid}:${d.vout}`, d]),
    );
    // A pending deposit the chain no longer shows (its block left the main chain and the
    // transaction with it, or a conflicting spend replaced it) leaves the pending list.
    for (const [key, d] of known) {
      if (d.state === 'pending' && !current.has(key)) {
        deps.log.info('deposit left the chain', { currency: c.id, deposit: key, reorged: removed.has(key) });
        await updateDeposit(trx, d.id, { state: 'removed', confirmations: 0 });
        effects.push({ userId: d.user_id, kind: 'changed' });
      }
    }
    for (const [key, p] of current) {
      const userId = owners.get(p.address)!;
      let d: (Pick<DepositsTable, 'confirmations' | 'state'> & { id: number }) | undefined = known.get(key);
      if (!d) {
        const r = await insertDeposit(trx, {
          currency_id: c.id,
          txid: p.txid,
          vout: p.vout,
          user_id: userId,
          address: p.address,
          amount: p.amount.toString(),
          confirmations: p.confirmations,
          state: 'pending',
          seen_at: now,
          updated_at: now,
        });
        if (!r.numInsertedOrUpdatedRows) continue; // credited or settled before: never again
        d = { id: Number(r.insertId), confirmations: p.confirmations, state: 'pending' };
        if (p.confirmations < c.confirmations && !belowMinimum(c, p.amount, usable))
          effects.push({ userId, kind: 'pending', atomic: p.amount });
        else effects.push({ userId, kind: 'changed' });
      } else if (d.state === 'removed' || d.confirmations !== p.confirmations) {
        await updateDeposit(trx, d.id, { state: 'pending', confirmations: p.confirmations });
        effects.push({ userId, kind: 'changed' });
      }
      if (p.confirmations < c.confirmations) continue;
      if (!usable) {
        deps.log.warn('deposit waits for a price', {
          currency: c.id,
          price_coin: c.price_coin,
          txid: p.txid,
          quote: quote
            ? quote.provider === 'demo'
              ? 'demo figures never price a deposit: set MARKET_PROVIDER=coingecko'
              : 'too old'
            : 'none',
        });
        waiting = true;
        continue;
      }
      const micros = atomicToMicros(p.amount, c.decimals, usable.price_usd);
      if (micros < c.minimum) {
        await updateDeposit(trx, d.id, { state: 'below_minimum', usd_micros: micros });
        effects.push({ userId, kind: 'changed' });
        continue;
      }
      const amount = formatCoins(p.amount, c.decimals);
      await creditDeposit(trx, {
        userId,
        amount: micros,
        via: 'crypto',
        idempotencyKey: `crypto:${c.id}:${p.txid}:${p.vout}`,
        description: `${c.label} deposit (${amount} ${c.ticker})`,
        meta: {
          currency: c.id,
          txid: p.txid,
          vout: p.vout,
          amount,
          confirmations: p.confirmations,
          price_usd: usable.price_usd,
          price_source: usable.provider,
          price_at: usable.updated_at,
        },
      });
      await updateDeposit(trx, d.id, { state: 'credited', usd_micros: micros, confirmations: p.confirmations });
      effects.push({ userId, kind: 'credited', micros });
    }
    // One "deposit received" per user and pass, for what the pass saw together: anyone can
    // pay an address a thousand outputs in one transaction, and each must not be a mail.
    const seenFor = new Map<number, bigint>();
    for (const e of effects) if (e.kind === 'pending') seenFor.set(e.userId, (seenFor.get(e.userId) ?? 0n) + e.atomic!);
    for (const [userId, atomic] of seenFor)
      await raise(trx, userId, 'deposit_pending', { currency: c.ticker, amount: formatCoins(atomic, c.decimals) });
    for (const e of effects)
      if (e.kind === 'credited')
        await raise(trx, e.userId, 'deposit_credited', { currency: c.label, usd_micros: e.micros! });
    // The ledger tells the owner of a credit; a pending list that changed is told here.
    for (const userId of new Set(effects.filter((e) => e.kind !== 'credited').map((e) => e.userId)))
      await insertEvent(trx, userId, 'refresh_transactions', {});
    if (cursor !== null && !waiting) await setCursor(trx, c.id, cursor);
  });
  if (effects.length) afterRaise(deps);
}

/** The recurring job `deposits.watch`: every `everyMs`, and once at start. */
export function scheduleDepositWatch(jobs: JobRunner, deps: Deps, everyMs: number): void {
  jobs.every('deposits.watch', {
    everyMs,
    atStart: true,
    deadlineMs: 5 * 60_000,
    run: (signal) => watchDeposits(deps, signal),
  });
}
