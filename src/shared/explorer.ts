/**
 * A coin's public block explorer as URL templates (catalog/coins.json `explorer`): `tx`
 * holds `{txid}`, `address` holds `{address}`. Coins without a known public explorer
 * have none, and their values show without a link.
 */
export type ExplorerTemplates = { tx: string; address: string };
export type ExplorerLink = 'tx' | 'address';

export const EXPLORER_PLACEHOLDER: Record<ExplorerLink, string> = { tx: '{txid}', address: '{address}' };

/** The explorer's page of `value`; a txid's output index (`<txid>-1`, `<txid>:1`) is not part of it. */
export function explorerUrl(t: ExplorerTemplates, kind: ExplorerLink, value: string): string {
  const v = kind === 'tx' ? value.replace(/[-:]\d+$/, '') : value;
  return t[kind].replace(EXPLORER_PLACEHOLDER[kind], encodeURIComponent(v));
}
