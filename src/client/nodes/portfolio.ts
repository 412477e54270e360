import { UNPLACED_ADDRESS } from '../../shared/unplaced';
import { familyOf } from '../../shared/families';
import type { GetMasternodesOutput, MasternodeListItem, QueueItem } from '../../shared/schemas/nodes';

/**
 * The portfolio's rules (platform-and-account.md sections 2 and 3), kept apart from
 * the page so they can be tested without a browser.
 */

/** How a node is named on screen: its alias, else its id. */
export const nodeName = (n: { alias: string | null; mn_id: string }): string => n.alias || n.mn_id;

/** A row of the list: a node, or a build-queue item still deploying (shown first, "Deploying..."). */
export type PortfolioRow = { kind: 'queue'; item: QueueItem } | { kind: 'node'; node: MasternodeListItem };

/**
 * Queue items whose node is not in the list yet (still deploying) come first; a
 * finished deployment ("done" or "failed") is already a node row, and only the queue
 * panel keeps it.
 */
export function portfolioRows(data: Pick<GetMasternodesOutput, 'masternodes' | 'queue'>): PortfolioRow[] {
  const listed = new Set(data.masternodes.map((n) => n.mn_id));
  const deploying: PortfolioRow[] = data.queue
    .filter((q) => !listed.has(q.mn_id))
    .map((item) => ({ kind: 'queue', item }));
  return [...deploying, ...data.masternodes.map((node): PortfolioRow => ({ kind: 'node', node }))];
}

const has = (q: string, ...fields: (string | null | undefined)[]) => fields.some((f) => f?.toLowerCase().includes(q));

/** Search by currency (id, label, ticker), id, output text, payee and alias. */
export function rowMatches(row: PortfolioRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (row.kind === 'queue') {
    const { item } = row;
    return has(q, item.currency, item.currency_data.label, item.currency_data.ticker, item.mn_id, item.name);
  }
  const n = row.node;
  return has(q, n.currency, n.currency_data.label, n.currency_data.ticker, n.mn_id, n.output_text, n.payee, n.alias);
}

/**
 * Only families set up through a masternode.conf line go into the export (the family
 * registry's `exported`): DIP003 kinds register on chain, Horizen, Monero-type and EVM
 * validators have no such line.
 */
export function isExportable(n: Pick<MasternodeListItem, 'family'>): boolean {
  return familyOf(n.family).exported;
}

/**
 * One masternode.conf line: the node's output text with its first word replaced by
 * the alias or id ("alias ip:port key txid index"). A node whose line the server has
 * not written yet gets a comment line, which the wallet skips, rather than a bare name
 * that would break the file.
 */
export function exportLine(n: Pick<MasternodeListItem, 'alias' | 'mn_id' | 'output_text'>): string {
  const words = n.output_text.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return `# ${nodeName(n)}: not ready yet, the node is still being set up`;
  if (words[1] === UNPLACED_ADDRESS) return `# ${nodeName(n)}: not on a server yet; its line appears here once it is`;
  // The wallet splits the line on spaces: an alias's spaces become underscores, as on the node page.
  return [nodeName(n).replace(/\s+/g, '_'), ...words.slice(1)].join(' ');
}

export type ExportBlock = { currency: string; label: string; ticker: string; text: string };

/** One text block per currency, in the list's order. */
export function exportBlocks(nodes: MasternodeListItem[]): ExportBlock[] {
  const blocks = new Map<string, ExportBlock>();
  for (const n of nodes) {
    if (!isExportable(n)) continue;
    const line = exportLine(n);
    const block = blocks.get(n.currency);
    if (block) block.text += `\n${line}`;
    else
      blocks.set(n.currency, {
        currency: n.currency,
        label: n.currency_data.label,
        ticker: n.currency_data.ticker,
        text: line,
      });
  }
  return [...blocks.values()];
}

/** The export is searched by label, text and ticker. */
export function blockMatches(b: ExportBlock, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || has(q, b.label, b.text, b.ticker);
}
