import type { CoinDetail } from '../../shared/schemas/coins';
import { statisticText } from '../ui/display';

type Statistic = CoinDetail['statistics'][number];

/** A two-column table of statistic objects (Specifications, Statistics). */
export function StatTable({ title, rows }: { title: string; rows: Statistic[] }) {
  const id = `stat-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="card table-card" aria-labelledby={id}>
      <h2 id={id} className="card-title">
        {title}
      </h2>
      <table className="table stat-table" aria-labelledby={id}>
        <tbody>
          {rows.map((s) => (
            <tr key={s.variable} data-variable={s.variable}>
              <th scope="row">{s.label}</th>
              <td className="num">{statisticText(s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
