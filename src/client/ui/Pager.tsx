import './pager.css';
import { pageCount, pageWindow } from './pages';

type Props = {
  page: number;
  total: number;
  perPage: number;
  onPage: (page: number) => void;
  /** What is paged, for screen readers: "Transaction history pages". */
  label: string;
};

/**
 * The generic table's pager: Previous, the page numbers within 2 of the current page,
 * Next. Nothing when everything fits on one page. Previous and Next at the ends are
 * aria-disabled, not disabled: a keyboard user who pages to the last page with Enter
 * keeps the focus on Next instead of losing it to the page's top.
 */
export function Pager({ page, total, perPage, onPage, label }: Props) {
  const pages = pageCount(total, perPage);
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-disabled={page <= 1 || undefined}
        onClick={() => page > 1 && onPage(page - 1)}
      >
        Previous
      </button>
      {pageWindow(page, pages).map((p) => (
        <button
          key={p}
          type="button"
          className={`btn btn-sm ${p === page ? 'btn-primary' : 'btn-secondary'}`}
          aria-current={p === page ? 'page' : undefined}
          aria-label={`Page ${p}`}
          onClick={() => onPage(p)}
        >
          {p}
        </button>
      ))}
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-disabled={page >= pages || undefined}
        onClick={() => page < pages && onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
