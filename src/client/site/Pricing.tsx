import { useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { formatDailyPrice } from '../../shared/format';
import { CoinLogo } from '../coins/CoinLogo';
import { DAYS_PER_MONTH, matchesSearch } from '../coins/coinList';
import { formatUsd2 } from '../ui/display';
import { campaignRows, planFloors, type PlanFloor, type PriceRow } from '../coins/pricing';
import { ContactLink } from '../layout/support';
import { trpc } from '../app/trpc';
import { QueryState } from '../ui/QueryState';
import '../layout/site.css';
import { TableScroll } from '../ui/TableScroll';

/** The two plans (deployment-and-nodes.md section 1); their prices are the lowest the coins offer now. */
const PLANS = [
  {
    key: 'dedicated',
    name: 'Dedicated',
    uptime: '99.99%',
    resources: 'Dedicated',
    points: ['Dedicated resources', '99.99% uptime', 'Charged daily from your balance'],
    featured: true,
  },
  {
    key: 'cloud',
    name: 'Cloud',
    uptime: '99.00%',
    resources: 'Shared',
    points: ['Shared resources', '99.00% uptime', 'Charged daily from your balance'],
    featured: false,
  },
] as const;

const NONE = '—';
const daily = (usd: number) => `$${formatDailyPrice(usd)}`;

export function Pricing() {
  const detailed = trpc.coins.get_detailed.useQuery();
  // Only for the logos (COIN_LOGO_URL); the list's query, usually cached already.
  const coins = trpc.coins.get_coins.useQuery();
  const logos = coins.data?.data;
  const rows: PriceRow[] = useMemo(() => (detailed.data?.data ?? []).filter((r) => !r.delisted), [detailed.data]);
  const floors = useMemo(() => planFloors(rows), [rows]);

  return (
    <div className="container page">
      <header className="page-intro">
        <h1>Pricing</h1>
        <p className="lead">Pay per node per day from your prepaid balance. The monthly fee is 30 × the daily price.</p>
      </header>
      <div className="plans">
        {PLANS.map((p) => (
          <PlanCard
            key={p.key}
            id={p.key}
            name={p.name}
            points={p.points}
            featured={p.featured}
            floor={detailed.data ? floors[p.key] : undefined}
          />
        ))}
      </div>
      {detailed.data && <PlanTable floors={floors} />}
      {detailed.data && <Campaigns rows={campaignRows(rows)} />}
      <QueryState query={detailed} what="Prices" loadingLabel="Loading prices…">
        {() => <CoinPrices rows={rows} logoOf={(id) => logos?.[id]?.logo} />}
      </QueryState>
      <section className="card bulk">
        <h2>Running more than 20 nodes?</h2>
        <p>
          We offer a bulk install for fleets of over 20 nodes.{' '}
          <ContactLink subject="Bulk install">Contact us</ContactLink> for an offer.
        </p>
      </section>
    </div>
  );
}

/** `floor` undefined while loading; null when no listed coin offers the plan. */
function PlanCard({
  id,
  name,
  points,
  featured,
  floor,
}: {
  id: string;
  name: string;
  points: readonly string[];
  featured: boolean;
  floor: PlanFloor | undefined;
}) {
  return (
    <section className={`card plan${featured ? ' plan-featured' : ''}`} aria-labelledby={`plan-${id}`} data-plan={id}>
      <h2 id={`plan-${id}`}>{name}</h2>
      <p className="plan-price">
        {floor === undefined ? (
          <strong>…</strong>
        ) : floor === null ? (
          <strong>{NONE}</strong>
        ) : (
          <>
            from <strong data-testid={`plan-${id}-daily`}>{daily(floor.daily)}</strong>/day
          </>
        )}
      </p>
      <p className="muted">
        {floor ? (
          <span data-testid={`plan-${id}-monthly`}>from {formatUsd2(floor.monthly)}/mo</span>
        ) : floor === null ? (
          'Not offered yet'
        ) : (
          '\u00a0'
        )}
      </p>
      <ul className="plan-points">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <Link href="/dashboard" className="btn btn-primary btn-block">
        Choose a coin
      </Link>
    </section>
  );
}

/** The spec's plan table: monthly and daily price, uptime and resources of each plan. */
function PlanTable({ floors }: { floors: { dedicated: PlanFloor; cloud: PlanFloor } }) {
  return (
    <section className="card table-card plan-table-card" aria-labelledby="plan-table-title">
      <h2 id="plan-table-title" className="card-title">
        Plans
      </h2>
      <TableScroll>
        <table className="table" aria-labelledby="plan-table-title">
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col" className="num">
                Monthly
              </th>
              <th scope="col" className="num">
                Daily charge
              </th>
              <th scope="col">Uptime</th>
              <th scope="col">Resources</th>
            </tr>
          </thead>
          <tbody>
            {PLANS.map((p) => {
              const f = floors[p.key];
              return (
                <tr key={p.key} data-plan-row={p.key}>
                  <th scope="row">{p.name}</th>
                  <td className="num">{f ? `from ${formatUsd2(f.monthly)}` : NONE}</td>
                  <td className="num">{f ? daily(f.daily) : NONE}</td>
                  <td>{p.uptime}</td>
                  <td>{p.resources}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

/** Coins with a price campaign: the regular price struck through beside the campaign price. */
function Campaigns({ rows }: { rows: PriceRow[] }) {
  if (rows.length === 0) return null;
  return (
    <section className="card campaigns" aria-labelledby="campaigns-title">
      <h2 id="campaigns-title">Campaigns</h2>
      <p className="muted">For a limited time these coins cost less than their regular price.</p>
      <ul className="campaign-list">
        {rows.map((r) => (
          <li key={r.id} data-campaign={r.id}>
            <strong>{r.label}</strong>{' '}
            <span className="campaign-prices">
              Dedicated <OldAndNew old={r.regular_dedicated_price_usd} now={r.dedicated_price_usd} />
              {r.cloud_price_usd !== null && r.regular_cloud_price_usd !== null && (
                <>
                  {' · '}Cloud <OldAndNew old={r.regular_cloud_price_usd} now={r.cloud_price_usd} />
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "$0.130 $0.100/day" with the regular price struck through (and said so to screen readers). */
function OldAndNew({ old, now }: { old: number; now: number }) {
  if (old === now) return <span>{daily(now)}/day</span>;
  return (
    <span className="old-and-new">
      <s aria-label={`regular price ${daily(old)}`}>{daily(old)}</s> <strong>{daily(now)}</strong>/day
    </span>
  );
}

/** Every listed coin's daily and monthly price per plan, searchable. */
function CoinPrices({ rows, logoOf }: { rows: PriceRow[]; logoOf: (id: string) => string | undefined }) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = rows.filter((r) => matchesSearch(r, query));
  return (
    <section className="card table-card price-list" aria-labelledby="price-list-title">
      <div className="card-head card-head-padded">
        <h2 id="price-list-title">Prices per coin</h2>
        <div className="field field-inline">
          <label htmlFor={searchId} className="sr-only">
            Search coins
          </label>
          <input
            id={searchId}
            type="search"
            placeholder="Search coins"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>
      <TableScroll>
        <table className="table" aria-labelledby="price-list-title">
          <thead>
            <tr>
              <th scope="col">Coin</th>
              <th scope="col" className="num">
                Dedicated / day
              </th>
              <th scope="col" className="num">
                Dedicated / month
              </th>
              <th scope="col" className="num">
                Cloud / day
              </th>
              <th scope="col" className="num">
                Cloud / month
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id} data-coin={r.id}>
                <td>
                  <span className="coin-cell">
                    <CoinLogo id={r.id} ticker={r.ticker} src={logoOf(r.id)} size={24} />
                    <span className="coin-name">
                      <span className="coin-label">
                        {r.label} {r.campaign && <span className="flag flag-success">Campaign</span>}
                        {r.coming_soon && <span className="flag flag-info">Coming soon</span>}
                      </span>
                      <span className="coin-ticker">{r.ticker}</span>
                    </span>
                  </span>
                </td>
                <td className="num">
                  <Price now={r.dedicated_price_usd} old={r.regular_dedicated_price_usd} format={daily} />
                </td>
                <td className="num">
                  <Price
                    now={DAYS_PER_MONTH * r.dedicated_price_usd}
                    old={DAYS_PER_MONTH * r.regular_dedicated_price_usd}
                    format={formatUsd2}
                  />
                </td>
                <td className="num">
                  {r.cloud_price_usd === null ? (
                    NONE
                  ) : (
                    <Price
                      now={r.cloud_price_usd}
                      old={r.regular_cloud_price_usd ?? r.cloud_price_usd}
                      format={daily}
                    />
                  )}
                </td>
                <td className="num">
                  {r.cloud_price_usd === null ? (
                    NONE
                  ) : (
                    <Price
                      now={DAYS_PER_MONTH * r.cloud_price_usd}
                      old={DAYS_PER_MONTH * (r.regular_cloud_price_usd ?? r.cloud_price_usd)}
                      format={formatUsd2}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {shown.length === 0 && <p className="table-empty">No coins match “{query.trim()}”.</p>}
    </section>
  );
}

/** A price cell; during a campaign the regular price is struck through before it. */
function Price({ now, old, format }: { now: number; old: number; format: (n: number) => string }) {
  if (Math.abs(old - now) < 1e-9) return <>{format(now)}</>;
  return (
    <>
      <s className="old-price" aria-label={`regular price ${format(old)}`}>
        {format(old)}
      </s>{' '}
      {format(now)}
    </>
  );
}
