import { describe, expect, it } from 'vitest';
import type { MasternodeListItem, QueueItem } from '../../shared/schemas/nodes';
import { humanDuration, relativeTime, utcDate, utcDateTime } from '../nodes/nodeTime';
import { blockMatches, exportBlocks, exportLine, isExportable, portfolioRows, rowMatches } from '../nodes/portfolio';

// The portfolio's rules and the node pages' times apart from the browser.

const node = (mn_id: string, extra: Partial<MasternodeListItem> = {}): MasternodeListItem => ({
  mn_id,
  alias: null,
  currency: 'pivx',
  currency_data: { id: 'pivx', label: 'PIVX', ticker: 'PIVX' },
  logo: '/logos/pivx.svg',
  status: 'running',
  status_on_network: 'ENABLED',
  active_time: null,
  last_paid: null,
  worth: 100,
  revenue: 2.5,
  create_date: '2025-01-02T03:04:05.000Z',
  output_text: '',
  start_cmd: '',
  start_cmd_missing: [],
  payee: '',
  front_options: { validator_evm: false },
  dip003: false,
  dip003_restrict: false,
  monero: false,
  family: 'classic',
  simulated: false,
  ...extra,
});

const queued = (mn_id: string, status: QueueItem['status'] = 'pending'): QueueItem => ({
  name: mn_id,
  currency: 'dash',
  status,
  activated: false,
  link: `/dashboard/masternode/${mn_id}?tab=config`,
  mn_id,
  currency_data: { id: 'dash', label: 'Dash', ticker: 'DASH' },
  reason: null,
});

describe('portfolio rows', () => {
  it('puts deploying queue items first and keeps finished ones as nodes only', () => {
    const rows = portfolioRows({ masternodes: [node('a'), node('b')], queue: [queued('b', 'done'), queued('c')] });
    expect(rows.map((r) => (r.kind === 'queue' ? `q:${r.item.mn_id}` : r.node.mn_id))).toEqual(['q:c', 'a', 'b']);
  });

  it('searches currency, id, output text, payee and alias', () => {
    const n = node('pivx-1', { alias: 'My Node', payee: 'DPayee', output_text: 'x 1.2.3.4:51472 key' });
    const row = { kind: 'node' as const, node: n };
    for (const q of ['pivx', 'PIVX-1', 'my node', 'dpayee', '1.2.3.4', '']) expect(rowMatches(row, q), q).toBe(true);
    expect(rowMatches(row, 'dash')).toBe(false);
    expect(rowMatches({ kind: 'queue', item: queued('dash-9') }, 'dash')).toBe(true);
  });
});

describe('export', () => {
  it('takes the families the registry exports and leaves the others out', () => {
    expect(isExportable(node('p'))).toBe(true);
    expect(isExportable(node('s', { family: 'sin' }))).toBe(true);
    for (const family of [
      'dip003',
      'dip003_restrict',
      'smartnode',
      'zen',
      'nrg',
      'monero',
      'playa3ull',
      'satori',
      'evm',
      'defi',
    ]) {
      expect(isExportable(node('x', { family })), family).toBe(false);
    }
    // An unknown family (a newer catalogue) reads as classic.
    expect(isExportable(node('u', { family: 'brand-new' }))).toBe(true);
  });

  it("writes each node's real config line, named by alias or id, grouped by currency", () => {
    expect(exportLine(node('pivx-1', { output_text: 'mn1 1.2.3.4:51472 key txid 0' }))).toBe(
      'pivx-1 1.2.3.4:51472 key txid 0',
    );
    expect(exportLine(node('pivx-1', { alias: 'alpha', output_text: 'mn1 1.2.3.4:51472 key txid 0' }))).toBe(
      'alpha 1.2.3.4:51472 key txid 0',
    );
    // Not on a server yet: a comment naming why, never a line the wallet would misread.
    expect(exportLine(node('pivx-1', { output_text: 'mn1 unplaced key txid 0' }))).toBe(
      '# pivx-1: not on a server yet; its line appears here once it is',
    );
    // No line from the server yet: a comment the wallet skips, never a bare name.
    expect(exportLine(node('pivx-2'))).toBe('# pivx-2: not ready yet, the node is still being set up');
    const xsn = { currency: 'xsn', currency_data: { id: 'xsn', label: 'Stakenet', ticker: 'XSN' } };
    const line = (id: string) => `${id} 10.0.0.1:9999 k t 1`;
    const blocks = exportBlocks([
      node('p1', { output_text: line('a') }),
      node('d1', { family: 'dip003', output_text: line('b') }),
      node('x1', { ...xsn, output_text: line('c') }),
      node('p2', { output_text: line('d') }),
    ]);
    expect(blocks).toEqual([
      { currency: 'pivx', label: 'PIVX', ticker: 'PIVX', text: 'p1 10.0.0.1:9999 k t 1\np2 10.0.0.1:9999 k t 1' },
      { currency: 'xsn', label: 'Stakenet', ticker: 'XSN', text: 'x1 10.0.0.1:9999 k t 1' },
    ]);
    expect(blocks.filter((b) => blockMatches(b, 'stake')).map((b) => b.currency)).toEqual(['xsn']);
    expect(blocks.filter((b) => blockMatches(b, 'p2')).map((b) => b.currency)).toEqual(['pivx']);
  });
});

describe('times', () => {
  it('reads as people say them, in UTC', () => {
    const now = Date.parse('2025-01-10T12:00:00Z');
    expect(relativeTime('2025-01-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2025-01-09T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2025-01-10T11:59:40Z', now)).toBe('just now');
    expect(humanDuration(3 * 86_400 + 4 * 3_600 + 59)).toBe('3 d 4 h');
    expect(humanDuration(2 * 3_600 + 5 * 60)).toBe('2 h 5 min');
    expect(humanDuration(30)).toBe('< 1 min');
    expect(utcDate('2025-01-02T23:59:00Z')).toBe('2025-01-02');
    expect(utcDateTime('2025-01-02T03:04:05Z')).toBe('2025-01-02 03:04 UTC');
  });
});
