import { useState } from 'react';
import type { z } from 'zod';
import type { catalogCoin, importPreview } from '../../shared/schemas/console-catalog';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { QueryState } from '../ui/QueryState';

type Coin = z.infer<typeof catalogCoin>;
type Preview = z.infer<typeof importPreview>;

/** Every coin with its prices and flags, edited in place; catalog imports with a preview. The CLI's `catalog …`. */
export function Catalog() {
  const coins = trpc.console.catalog.coins.useQuery();
  return (
    <div className="console-catalog">
      <section className="console-section" aria-labelledby="coins-h">
        <h2 id="coins-h">Coins</h2>
        <p>Changes apply at once: open coin lists and deploy pages update live.</p>
        <QueryState query={coins} what="The catalog">
          {(list) => (
            <table className="console-table">
              <thead>
                <tr>
                  <th>Coin</th>
                  <th>Dedicated $/day</th>
                  <th>Cloud $/day</th>
                  <th>Campaign</th>
                  <th>Maintenance</th>
                  <th>Cloud plan</th>
                  <th>Listed</th>
                  <th>Hosted</th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <CoinRow key={c.id} coin={c} />
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </section>
      <ImportSection />
    </div>
  );
}

function CoinRow({ coin: c }: { coin: Coin }) {
  const utils = trpc.useUtils();
  const refetch = { onSuccess: () => utils.console.catalog.coins.invalidate() };
  const setPrice = trpc.console.catalog.set_price.useMutation(refetch);
  const setFlag = trpc.console.catalog.set_flag.useMutation(refetch);
  const delist = trpc.console.catalog.delist.useMutation(refetch);
  const [prices, setPrices] = useState<{ dedicated: string; cloud: string } | null>(null);
  const failed = [setPrice, setFlag, delist].find((m) => m.isError);
  const toggle = (flag: 'campaign' | 'maintenance' | 'cloud', on: boolean, label: string) => (
    <label className="console-toggle">
      <input
        type="checkbox"
        aria-label={`${label} of ${c.label}`}
        checked={on}
        disabled={setFlag.isPending}
        onChange={(e) => setFlag.mutate({ coin: c.id, flag, on: e.target.checked })}
      />
      {on ? 'on' : 'off'}
    </label>
  );
  return (
    <tr data-coin={c.id}>
      <td>
        {c.label} <small>{c.ticker}</small>
        {failed && (
          <div className="console-error-text" role="alert">
            {errorMessage(failed.error)}
          </div>
        )}
      </td>
      <td colSpan={prices ? 2 : 1}>
        {prices ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setPrice.mutate(
                { coin: c.id, dedicated: prices.dedicated, cloud: prices.cloud },
                { onSuccess: () => setPrices(null) },
              );
            }}
          >
            <input
              aria-label={`Dedicated price of ${c.label}`}
              size={8}
              value={prices.dedicated}
              onChange={(e) => setPrices({ ...prices, dedicated: e.target.value })}
            />
            <input
              aria-label={`Cloud price of ${c.label}`}
              size={8}
              value={prices.cloud}
              onChange={(e) => setPrices({ ...prices, cloud: e.target.value })}
            />
            <button type="submit" className="btn btn-primary btn-sm" disabled={setPrice.isPending}>
              Save prices
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setPrices(null)}>
              Cancel
            </button>
          </form>
        ) : (
          <button
            type="button"
            className="btn-link"
            aria-label={`Edit prices of ${c.label}`}
            onClick={() => setPrices({ dedicated: c.dedicated_price, cloud: c.cloud_price })}
          >
            {c.dedicated_price}
          </button>
        )}
      </td>
      {!prices && <td>{c.cloud_price}</td>}
      <td>
        {toggle('campaign', c.campaign, 'Campaign')}{' '}
        <small>
          {c.campaign_dedicated_price} / {c.campaign_cloud_price}
        </small>
      </td>
      <td>{toggle('maintenance', c.maintenance, 'Maintenance')}</td>
      <td>{toggle('cloud', c.cloud, 'Cloud plan')}</td>
      <td>
        {c.delisted ? (
          'delisted'
        ) : (
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={delist.isPending}
            onClick={() =>
              window.confirm(`Delist ${c.label}? No new nodes can be deployed.`) && delist.mutate({ coin: c.id })
            }
          >
            Delist
          </button>
        )}
      </td>
      <td>{c.hosted}</td>
    </tr>
  );
}

function ImportSection() {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const check = trpc.console.catalog.preview_import.useMutation({ onSuccess: setPreview });
  const apply = trpc.console.catalog.import.useMutation({
    onSuccess: (r) => {
      setDone(`Imported: ${r.added.length} added, ${r.updated.length} updated.`);
      setPreview(null);
      setFile(null);
      void utils.console.catalog.coins.invalidate();
    },
  });
  return (
    <section className="console-section" aria-labelledby="import-h">
      <h2 id="import-h">Import a catalog file</h2>
      <p>
        Every coin in the file is written as the file says. Nothing changes until you apply the preview, and nothing at
        all if any coin is invalid.
      </p>
      <label>
        Catalog file (JSON)
        <input
          type="file"
          accept="application/json,.json"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            setPreview(null);
            setDone(null);
            if (!f) return setFile(null);
            const text = await f.text();
            setFile({ name: f.name, text });
            check.mutate({ file_name: f.name, text });
          }}
        />
      </label>
      {check.isError && <Alert kind="error">{errorMessage(check.error)}</Alert>}
      {preview && !preview.valid && (
        <Alert kind="error">
          The file is invalid; nothing can be imported:
          <ul>
            {preview.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </Alert>
      )}
      {preview?.valid && file && (
        <div className="console-card" aria-label="Import preview">
          <h3>What changes</h3>
          <ul>
            {preview.coins.map((c) => (
              <li key={c.id}>
                <strong>{c.id}</strong>: {c.kind === 'add' ? 'added' : c.kind === 'same' ? 'no change' : 'updated'}
                {c.kind === 'update' && (
                  <ul>
                    {c.changes.map((ch) => (
                      <li key={ch.field}>
                        {ch.field}: {ch.from} → {ch.to}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="btn btn-primary"
            disabled={apply.isPending}
            onClick={() => apply.mutate({ file_name: file.name, text: file.text })}
          >
            Apply import
          </button>
        </div>
      )}
      {apply.isError && <Alert kind="error">{errorMessage(apply.error)}</Alert>}
      {done && <Alert kind="success">{done}</Alert>}
    </section>
  );
}
