/** The generic table's page size (platform-and-account.md section 9); the transaction history uses 5. */
export const TABLE_PAGE_SIZE = 10;

/** How many pages `total` rows fill, at least 1. */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The page numbers the pager shows: those within 2 of the current page (section 9). */
export function pageWindow(page: number, pages: number): number[] {
  const from = Math.max(1, page - 2);
  const to = Math.min(pages, page + 2);
  const out: number[] = [];
  for (let p = from; p <= to; p++) out.push(p);
  return out;
}
