import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
const OPERATOR_IP = '198.51.100.11';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect(await runCli(['users', 'promote', operator.username], env(), { out: () => {} })).toBe(0);
});
afterAll(() => d?.close());

const env = () => ({ DATA_DIR: d.deps.config.dataDir });
const op = () => d.caller(operator.token, OPERATOR_IP).console;
const cli = (...args: string[]) => runCli(args, env(), { out: () => {} });
const lastLine = async () => (await op().log({ per_page: 1 })).lines[0];
const logTotal = async () => (await op().log({})).total;
const coinRow = (id: string) => d.db.selectFrom('coins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const statsEvents = async () =>
  (
    await d.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'update_stats')
      .where('user_id', 'is', null)
      .execute()
  ).length;

function expectOperatorLine(line: Awaited<ReturnType<typeof lastLine>>, action: string) {
  expect(line).toMatchObject({
    action,
    actor: 'operator',
    operator: { id: operator.id, username: operator.username },
    address: OPERATOR_IP,
  });
  expect(Math.abs(Date.parse(line.at) - Date.now())).toBeLessThan(60_000);
}

describe('console Catalog', () => {
  it('lists every coin with prices and flags', async () => {
    const coins = await op().catalog.coins();
    const dash = coins.find((c) => c.id === 'dash')!;
    const row = await coinRow('dash');
    expect(dash).toMatchObject({
      maintenance: row.maintenance === 1,
      cloud: row.cloud === 1,
      campaign: row.campaign === 1,
      delisted: row.delisted === 1,
    });
    expect(coins.length).toBe((await d.db.selectFrom('coins').select('id').execute()).length);
  });

  it('sets a price in micro-dollars, logged and announced live, the same as the CLI', async () => {
    const events = await statsEvents();
    await op().catalog.set_price({ coin: 'dash', dedicated: '0.123456' });
    expect((await coinRow('dash')).dedicated_price).toBe(123_456);
    const line = await lastLine();
    expectOperatorLine(line, 'catalog set-price');
    expect(line.detail).toEqual({ coin: 'dash', dedicated: 123_456 });
    expect(await statsEvents()).toBe(events + 1);
    // The CLI through the same service: the same row, the same action.
    expect(await cli('catalog', 'set-price', 'dash', '--cloud', '0.05')).toBe(0);
    expect(await coinRow('dash')).toMatchObject({ dedicated_price: 123_456, cloud_price: 50_000 });
    expect(await lastLine()).toMatchObject({
      action: 'catalog set-price',
      actor: 'cli',
      detail: { coin: 'dash', cloud: 50_000 },
    });
    expect((await op().catalog.coins()).find((c) => c.id === 'dash')).toMatchObject({
      dedicated_price: '0.123456',
      cloud_price: '0.05',
    });
  });

  it('refuses bad prices and unknown coins with a clear error, changing nothing', async () => {
    const [before, lines, events] = [await coinRow('dash'), await logTotal(), await statsEvents()];
    for (const bad of ['-1', '1.1234567', 'abc', '99999']) {
      const err = await rejection(op().catalog.set_price({ coin: 'dash', dedicated: bad }));
      expect(err.code).toBe('BAD_REQUEST');
    }
    expect((await rejection(op().catalog.set_price({ coin: 'dash' }))).code).toBe('BAD_REQUEST');
    expect((await rejection(op().catalog.set_price({ coin: 'nosuchcoin', dedicated: '1' }))).message).toBe(
      'No coin "nosuchcoin".',
    );
    expect((await rejection(op().catalog.set_flag({ coin: 'nosuchcoin', flag: 'maintenance', on: true }))).code).toBe(
      'NOT_FOUND',
    );
    expect(await cli('catalog', 'set-price', 'dash', '--dedicated', '-1')).toBe(2);
    expect(await coinRow('dash')).toEqual(before);
    expect(await logTotal()).toBe(lines);
    expect(await statsEvents()).toBe(events);
  });

  it('sets campaign prices, and refuses one at or above the regular price wherever it is set, changing nothing', async () => {
    await op().catalog.set_price({ coin: 'pivx', dedicated: '0.13', cloud: '0.063' });
    await op().catalog.set_price({ coin: 'pivx', campaign_dedicated: '0.09', campaign_cloud: '0.04' });
    expect(await coinRow('pivx')).toMatchObject({ campaign_dedicated_price: 90_000, campaign_cloud_price: 40_000 });
    expect((await lastLine()).detail).toEqual({ coin: 'pivx', campaignDedicated: 90_000, campaignCloud: 40_000 });
    const [before, lines, events] = [await coinRow('pivx'), await logTotal(), await statsEvents()];
    // Given together: the form's own check names the field.
    const both = await rejection(
      op().catalog.set_price({ coin: 'pivx', dedicated: '0.2', campaign_dedicated: '0.33' }),
    );
    expect(both.message).toMatch(/campaign price must be below the regular dedicated price/);
    // A campaign price alone, at the regular price: checked against the coin's regular price.
    const alone = await rejection(op().catalog.set_price({ coin: 'pivx', campaign_cloud: '0.063' }));
    expect(alone.message).toBe(
      'The campaign cloud price ($0.063/day) must be below the regular one ($0.063/day): a campaign is a discount.',
    );
    // A regular price lowered under the campaign's: the same rule, from the other side.
    const lowered = await rejection(op().catalog.set_price({ coin: 'pivx', dedicated: '0.05' }));
    expect(lowered.message).toBe(
      'The campaign dedicated price ($0.09/day) must be below the regular one ($0.05/day): a campaign is a discount.',
    );
    expect(await cli('catalog', 'set-price', 'pivx', '--campaign-dedicated', '0.33')).toBe(2);
    expect(await coinRow('pivx')).toEqual(before);
    expect(await logTotal()).toBe(lines);
    expect(await statsEvents()).toBe(events);
    // The CLI sets them too.
    expect(await cli('catalog', 'set-price', 'pivx', '--campaign-dedicated', '0.1', '--campaign-cloud', '0.045')).toBe(
      0,
    );
    expect(await coinRow('pivx')).toMatchObject({ campaign_dedicated_price: 100_000, campaign_cloud_price: 45_000 });
  });

  it('reads the log from the command line, in words, filtered by action and day', async () => {
    const out: string[] = [];
    const code = await runCli(['log', '--action', 'catalog set-price', '--limit', '2'], env(), {
      out: (l) => out.push(l),
    });
    expect(code).toBe(0);
    expect(out[0]).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  CLI \\(\\S+\\) \\(cli\\)  catalog set-price: coin pivx; campaign dedicated \\$0\\.10/day; campaign cloud \\$0\\.045/day$`,
      ),
    );
    expect(out[1]).toMatch(
      new RegExp(`${operator.username} \\(${OPERATOR_IP.replaceAll('.', '\\.')}\\)  catalog set-price: coin pivx`),
    );
    expect(out.at(-1)).toMatch(/^\(2 of \d+ lines: --limit or --since for more\)$/);
    const none: string[] = [];
    expect(await runCli(['log', '--since', '2999-01-01'], env(), { out: (l) => none.push(l) })).toBe(0);
    expect(none).toEqual(['no log lines match']);
    expect(await cli('log', '--since', 'yesterday')).toBe(2);
  });

  it('ships no campaign price at or above its regular one, and refuses a catalog file that has one', async () => {
    const shipped = JSON.parse(fs.readFileSync(bundledCatalogPath(), 'utf8')) as {
      coins: Array<{
        id: string;
        dedicated_price: string;
        cloud_price: string;
        campaign_prices: Record<string, string>;
      }>;
    };
    for (const c of shipped.coins) {
      expect(Number(c.campaign_prices.dedicated_price), c.id).toBeLessThan(Number(c.dedicated_price));
      expect(Number(c.campaign_prices.cloud_price), c.id).toBeLessThan(Number(c.cloud_price));
    }
    const dearer = {
      ...shipped,
      coins: [{ ...shipped.coins[0], campaign_prices: { dedicated_price: '0.33', cloud_price: '0.13' } }],
    };
    const preview = await op().catalog.preview_import({ file_name: 'dearer.json', text: JSON.stringify(dearer) });
    expect(preview).toEqual({
      valid: false,
      errors: [
        `coin ${shipped.coins[0].id}.campaign_prices.dedicated_price: The campaign dedicated price ($0.33/day) must be below the regular one ($${shipped.coins[0].dedicated_price}/day): a campaign is a discount.`,
      ],
    });
  });

  it('puts a coin in maintenance (deploys refused at once), switches campaign and cloud, delists; CLI and console alike', async () => {
    await op().catalog.set_flag({ coin: 'pivx', flag: 'maintenance', on: true });
    expectOperatorLine(await lastLine(), 'catalog maintenance');
    expect((await lastLine()).detail).toEqual({ coin: 'pivx', on: true });
    const info = await d.caller(customer.token).deploy.get_deploy_info({ coin: 'pivx' });
    expect(info.data.maintenance).toBe(true);
    expect(await cli('catalog', 'maintenance', 'pivx', 'off')).toBe(0);
    expect((await d.caller(customer.token).deploy.get_deploy_info({ coin: 'pivx' })).data.maintenance).toBe(false);
    expect(await lastLine()).toMatchObject({
      action: 'catalog maintenance',
      actor: 'cli',
      detail: { coin: 'pivx', on: false },
    });

    await op().catalog.set_flag({ coin: 'pivx', flag: 'campaign', on: true });
    expectOperatorLine(await lastLine(), 'catalog campaign');
    expect((await coinRow('pivx')).campaign).toBe(1);
    await op().catalog.set_flag({ coin: 'pivx', flag: 'cloud', on: false });
    expectOperatorLine(await lastLine(), 'catalog cloud');
    expect((await coinRow('pivx')).cloud).toBe(0);
    expect(await cli('catalog', 'cloud', 'pivx', 'on')).toBe(0);
    expect((await coinRow('pivx')).cloud).toBe(1);

    await op().catalog.delist({ coin: 'pivx' });
    expectOperatorLine(await lastLine(), 'catalog delist');
    expect((await coinRow('pivx')).delisted).toBe(1);
    const lines = await logTotal();
    await op().catalog.delist({ coin: 'pivx' }); // already delisted: nothing to log
    expect(await logTotal()).toBe(lines);
  });

  it('previews an import (what changes, field by field) without changing anything, then applies it', async () => {
    const file = JSON.parse(fs.readFileSync(bundledCatalogPath(), 'utf8'));
    const coins = (Array.isArray(file) ? file : file.coins) as Array<Record<string, unknown>>;
    const dash = structuredClone(coins.find((c) => c.id === 'dash')!);
    dash.dedicated_price = '0.2';
    const added = { ...structuredClone(dash), id: 'dashtwo', label: 'Dash Two' };
    const text = JSON.stringify(Array.isArray(file) ? [dash, added] : { ...file, coins: [dash, added] });
    const [before, lines] = [await coinRow('dash'), await logTotal()];
    const preview = await op().catalog.preview_import({ file_name: 'mine.json', text });
    expect(preview.valid).toBe(true);
    if (!preview.valid) return;
    expect(preview.coins.find((c) => c.id === 'dashtwo')?.kind).toBe('add');
    const change = preview.coins.find((c) => c.id === 'dash')!;
    expect(change.kind).toBe('update');
    expect(change.changes).toContainEqual({
      field: 'dedicated_price',
      from: String(before.dedicated_price),
      to: '200000',
    });
    expect(await coinRow('dash')).toEqual(before);
    expect(await logTotal()).toBe(lines);

    const r = await op().catalog.import({ file_name: 'mine.json', text });
    expect(r).toEqual({ added: ['dashtwo'], updated: ['dash'] });
    expect((await coinRow('dash')).dedicated_price).toBe(200_000);
    const line = await lastLine();
    expectOperatorLine(line, 'catalog import');
    expect(line.detail).toEqual({ file: 'mine.json', added: ['dashtwo'], updated: ['dash'] });

    // The CLI imports the same file through the same service.
    const dir = fs.mkdtempSync(path.join(d.deps.config.dataDir, 'cat-'));
    fs.writeFileSync(path.join(dir, 'mine.json'), text);
    expect(await cli('catalog', 'import', path.join(dir, 'mine.json'))).toBe(0);
    expect(await lastLine()).toMatchObject({
      action: 'catalog import',
      actor: 'cli',
      detail: { added: [], updated: ['dash', 'dashtwo'] },
    });
  });

  it('shows every validation error of a bad file and imports nothing', async () => {
    const [coins, lines] = [await d.db.selectFrom('coins').selectAll().orderBy('id').execute(), await logTotal()];
    const bad = JSON.stringify([{ id: 'Bad Id', label: '' }]);
    const preview = await op().catalog.preview_import({ file_name: 'bad.json', text: bad });
    expect(preview.valid).toBe(false);
    if (preview.valid) return;
    expect(preview.errors.length).toBeGreaterThan(0);
    expect(preview.errors.join('\n')).toMatch(/bad\.json/);
    const err = await rejection(op().catalog.import({ file_name: 'bad.json', text: bad }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/^The catalog file is invalid, nothing was imported/);
    expect((await op().catalog.preview_import({ file_name: 'x.json', text: '{not json' })).valid).toBe(false);
    expect(await d.db.selectFrom('coins').selectAll().orderBy('id').execute()).toEqual(coins);
    expect(await logTotal()).toBe(lines);
  });
});
