import { formatPercent, formatPrice } from '../../shared/format';
import type { CoinDetail } from '../../shared/schemas/coins';
import { shortPair } from '../ui/display';
import { TableScroll } from '../ui/TableScroll';

/** Where the coin trades: exchange, pair, price, 24 h volume and its share of the total. */
export function ExchangesTable({ exchanges }: { exchanges: CoinDetail['exchanges'] }) {
  return (
    <section className="card table-card" aria-labelledby="exchanges-title">
      <h2 id="exchanges-title" className="card-title">
        Exchanges
      </h2>
      {exchanges.length === 0 ? (
        <p className="table-empty">No exchange data yet.</p>
      ) : (
        <TableScroll>
          <table className="table" aria-labelledby="exchanges-title">
            <thead>
              <tr>
                <th scope="col">Exchange</th>
                <th scope="col">Pair</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Volume (24h)
                </th>
                <th scope="col" className="num">
                  Volume share
                </th>
                <th scope="col">
                  <span className="sr-only">Link</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {exchanges.map((x, i) => {
                const pair = shortPair(x.pair);
                return (
                  <tr key={i}>
                    <td>{x.exchange.name}</td>
                    <td>{pair === x.pair ? pair : <abbr title={x.pair}>{pair}</abbr>}</td>
                    <td className="num">${formatPrice(x.price)}</td>
                    <td className="num">{x.volume_text}</td>
                    <td className="num">{formatPercent(x.volume_percent)}</td>
                    <td>
                      {/^https?:\/\//i.test(x.link) && (
                        <a href={x.link} target="_blank" rel="noopener noreferrer">
                          Trade
                          <span className="sr-only">
                            {' '}
                            {x.pair} on {x.exchange.name}
                          </span>
                          <span aria-hidden="true"> ↗</span>
                        </a>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
