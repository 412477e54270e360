import { useId, type ReactNode } from 'react';

/** One label/value row; `false` or null rows are left out, so conditions read inline. */
export type DetailsRow = { label: string; value: ReactNode; testId?: string };

type Props = {
  title: string;
  rows: (DetailsRow | false | null | undefined)[];
  /** Anything under the rows: a note, an action, its alerts. */
  children?: ReactNode;
  className?: string;
};

/**
 * A card of label/value rows under a title. The label is each row's header, so tests
 * and screen readers find a value by its label.
 */
export function DetailsCard({ title, rows, children, className }: Props) {
  const titleId = useId();
  return (
    <section className={`card table-card${className ? ` ${className}` : ''}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        {title}
      </h2>
      <table className="table details-table" aria-labelledby={titleId}>
        <tbody>
          {rows.map(
            (row) =>
              row && (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  <td data-testid={row.testId}>{row.value}</td>
                </tr>
              ),
          )}
        </tbody>
      </table>
      {children && <div className="details-card-foot">{children}</div>}
    </section>
  );
}
