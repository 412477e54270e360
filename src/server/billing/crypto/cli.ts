import * as v from 'valibot';
import type { CliCommand } from '../../db/cli-command';
import { parseFlags, UsageError } from '../../kernel/cli';
import { logOperatorAction } from '../../operator/log';
import { openSecretBox } from '../../secrets/box';
import { CurrencyFlags, passwordAad, sourceProblem } from './currencies';
import { formatUsdExact } from '../../../shared/money';
import { findCurrency, insertCurrency, listCurrencies } from './queries';
import { setDepositCurrencyEnabled } from './admin';
import { AppError, fail } from '../../kernel/errors';
import { moneroWalletCall, parseRpcUrl } from './sources';
import { RESCAN_SLACK_MS } from './watcher';

const FLAGS = [
  'label',
  'ticker',
  'icon',
  'confirmations',
  'minimum',
  'price-coin',
  'xpub',
  'address',
  'rpc-url',
  'rpc-user',
  'rpc-password',
  'rpc-cookie',
  'wallet',
  'monero-wallet-rpc',
  'wallet-password',
  'view-key',
  'monero-address',
  'restore-height',
];

export const depositCommands: Record<string, CliCommand> = {
  'deposits add': {
    usage:
      'deposits add <id> --label <text> --ticker <T> --confirmations <n> [--minimum <usd>] [--icon <coin id>] [--price-coin <coin id>] ' +
      '(--xpub <xpub|tpub> --address wpkh:<hrp>|pkh:<version> --rpc-url <http://host:port> [--rpc-user <u> --rpc-password <p> | --rpc-cookie <file>] [--wallet <name>]) | ' +
      '(--monero-wallet-rpc <http://host:port> [--wallet <file> [--wallet-password <p>] [--view-key <hex> --monero-address <addr> [--restore-height <n>]]])',
    summary: 'accept deposits in a currency, watched by a watch-only daemon you run',
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, FLAGS);
      if (positional.length !== 1) throw new UsageError('deposits add takes one currency id');
      const { 'view-key': viewKey, 'monero-address': moneroAddress, 'restore-height': restoreHeight, ...rest } = flags;
      const parsed = v.safeParse(CurrencyFlags, { id: positional[0], ...rest });
      if (!parsed.success) throw new UsageError(parsed.issues[0].message);
      const f = parsed.output;
      const problem = sourceProblem(f);
      if (problem) throw new UsageError(problem);
      if (await findCurrency(db, f.id))
        fail('CONFLICT', `currency ${f.id} exists (disable it and add another id to change its source)`);
      const monero = !!f['monero-wallet-rpc'];
      if ((viewKey || moneroAddress) && !(monero && viewKey && moneroAddress && f.wallet))
        throw new UsageError('--view-key and --monero-address go together, with --monero-wallet-rpc and --wallet');
      if (viewKey && !/^[0-9a-f]{64}$/.test(viewKey)) throw new UsageError('--view-key is the 64-hex private view key');
      if (restoreHeight !== undefined && !/^\d{1,9}$/.test(restoreHeight))
        throw new UsageError('--restore-height is a block height');
      const password = monero ? f['wallet-password'] : f['rpc-password'];
      if (viewKey) {
        // The view-only wallet is made in the operator's wallet RPC; the view key is not kept here.
        try {
          await moneroWalletCall(
            { endpoint: parseRpcUrl(f['monero-wallet-rpc']!), timeoutMs: 60_000 },
            'generate_from_keys',
            {
              filename: f.wallet,
              address: moneroAddress,
              viewkey: viewKey,
              password: password ?? '',
              restore_height: Number(restoreHeight ?? 0),
              autosave_current: true,
            },
            v.looseObject({ address: v.literal(moneroAddress!) }),
          );
        } catch (err) {
          throw new UsageError(`the wallet RPC did not make the view-only wallet: ${(err as Error).message}`);
        }
      }
      const box = openSecretBox(config.dataDir, config);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await insertCurrency(trx, {
          id: f.id,
          label: f.label,
          ticker: f.ticker.toUpperCase(),
          icon_id: f.icon ?? null,
          kind: monero ? 'monero' : 'bitcoin',
          confirmations: f.confirmations,
          minimum: f.minimum,
          price_coin: f['price-coin'] ?? f.id,
          decimals: monero ? 12 : 8,
          xpub: f.xpub ?? null,
          address_type: f.address ?? null,
          rpc_url: f['monero-wallet-rpc'] ?? f['rpc-url']!,
          rpc_user: f['rpc-user'] ?? null,
          rpc_password: password ? box.seal(password, passwordAad(f.id)) : null,
          rpc_cookie: f['rpc-cookie'] ?? null,
          wallet: f.wallet ?? null,
          watch_from: now - RESCAN_SLACK_MS, // block times may lag the clock
          created_at: now,
        });
        await logOperatorAction(trx, io.by, 'deposits add', {
          id: f.id,
          kind: monero ? 'monero' : 'bitcoin',
          rpc_url: f['monero-wallet-rpc'] ?? f['rpc-url'],
          confirmations: f.confirmations,
          minimum: f.minimum,
        });
      });
      io.out(
        `${f.id}: deposits in ${f.label} (${f.ticker.toUpperCase()}) accepted, credited at ${f.confirmations} confirmations, minimum $${formatUsdExact(f.minimum)}`,
      );
    },
  },
  'deposits list': {
    usage: 'deposits list',
    summary: 'the deposit currencies and their sources (no secrets)',
    async run(db, _args, io) {
      const all = await listCurrencies(db, { enabledOnly: false });
      if (!all.length) io.out('no deposit currencies');
      for (const c of all) {
        io.out(
          `${c.id}\t${c.label} (${c.ticker})\t${c.kind}\t${c.enabled ? 'enabled' : 'disabled'}\t${c.confirmations} conf\tmin $${formatUsdExact(c.minimum)}\t${c.rpc_url}\taddresses ${c.kind === 'bitcoin' ? `${c.next_index} (watched ${c.imported_to})` : ''}`,
        );
      }
    },
  },
  'deposits disable': {
    usage: 'deposits disable <id>',
    summary: 'stop offering a deposit currency (payments to addresses already given are still watched and credited)',
    run: (db, args, io) => toggle(db, args, io, false),
  },
  'deposits enable': {
    usage: 'deposits enable <id>',
    summary: 'offer a disabled deposit currency again',
    run: (db, args, io) => toggle(db, args, io, true),
  },
};

async function toggle(
  db: Parameters<CliCommand['run']>[0],
  args: string[],
  io: Parameters<CliCommand['run']>[2],
  enabled: boolean,
) {
  if (args.length !== 1) throw new UsageError(`deposits ${enabled ? 'enable' : 'disable'} takes one currency id`);
  const changed = await setDepositCurrencyEnabled(db, io.by, args[0], enabled).catch((err: unknown) => {
    throw err instanceof AppError && err.code === 'NOT_FOUND'
      ? new AppError('NOT_FOUND', `no deposit currency "${args[0]}"`)
      : err;
  });
  io.out(`${args[0]}: ${changed ? '' : 'already '}${enabled ? 'enabled' : 'disabled'}`);
}
