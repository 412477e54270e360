import { useState } from 'react';
import type { z } from 'zod';
import { setPriceInput, type catalogCoin, type importPreview } from '../../shared/schemas/console-catalog';
import type { imageRecipe } from '../../shared/schemas/console-images';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { QueryState } from '../ui/QueryState';
import { useConfirm } from '../ui/useConfirm';
import { useForm } from '../ui/useForm';
import { ReadinessCell, ReadinessSection, useReadiness } from './CatalogReadiness';
import type { coinReadinessRow } from '../../shared/schemas/console-readiness';

type Coin = z.infer<typeof catalogCoin>;
type Preview = z.infer<typeof importPreview>;
type Recipe = z.infer<typeof imageRecipe>;
type ReadinessRow = z.infer<typeof coinReadinessRow>;

/** Every coin with its prices and flags, edited in place; catalog imports with a preview. The CLI's `catalog …`. */
export function Catalog() {
  const coins = trpc.console.catalog.coins.useQuery();
  const readiness = useReadiness();
  const readinessOf = (id: string) => readiness.data?.find((r) => r.coin === id);
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
                  <th>Readiness</th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <CoinRow key={c.id} coin={c} readiness={readinessOf(c.id)} />
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </section>
      <ReadinessSection />
      <ImagesSection />
      <ImportSection />
    </div>
  );
}

/** The price form's fields, as the coin has them now. */
const pricesOf = (c: Coin) => ({
  dedicated: c.dedicated_price,
  cloud: c.cloud_price,
  campaign_dedicated: c.campaign_dedicated_price,
  campaign_cloud: c.campaign_cloud_price,
});

function CoinRow({ coin: c, readiness }: { coin: Coin; readiness: ReadinessRow | undefined }) {
  const utils = trpc.useUtils();
  const refetch = { onSuccess: () => utils.console.catalog.coins.invalidate() };
  const setPrice = trpc.console.catalog.set_price.useMutation(refetch);
  const setFlag = trpc.console.catalog.set_flag.useMutation(refetch);
  const delist = trpc.console.catalog.delist.useMutation(refetch);
  const [editing, setEditing] = useState(false);
  const prices = useForm({
    schema: setPriceInput,
    initial: pricesOf(c),
    toInput: (v) => ({ coin: c.id, ...v }),
    submit: (data) => setPrice.mutateAsync(data),
    successMessage: () => null,
    onSuccess: () => setEditing(false),
    // The row has no room under its inputs: the refusal is said in the row's error line.
    alertInvalid: true,
  });
  const confirm = useConfirm();
  // Maintenance on and delist say their errors in their dialog.
  const error = prices.error ?? (setFlag.isError && !confirm.dialog ? errorMessage(setFlag.error) : null);
  const flag = (flag: 'campaign' | 'maintenance' | 'cloud', on: boolean) => {
    // Maintenance stops new business for the coin: asked first. Switching it off undoes that and asks nothing.
    if (flag !== 'maintenance' || !on) return setFlag.mutate({ coin: c.id, flag, on });
    void confirm.ask({
      title: `Put ${c.label} in maintenance?`,
      effect: `${c.label} can't be deployed while in maintenance; ${keepRunning(c.hosted)}.`,
      confirmLabel: 'Switch maintenance on',
      busyLabel: 'Switching…',
      danger: true,
      action: () => setFlag.mutateAsync({ coin: c.id, flag, on }),
    });
  };
  const toggle = (flag_: 'campaign' | 'maintenance' | 'cloud', on: boolean, label: string) => (
    <label className="console-toggle">
      <input
        type="checkbox"
        aria-label={`${label} of ${c.label}`}
        checked={on}
        disabled={setFlag.isPending}
        onChange={(e) => flag(flag_, e.target.checked)}
      />
      {on ? 'on' : 'off'}
    </label>
  );
  return (
    <tr data-coin={c.id}>
      <td>
        {c.label} <small>{c.ticker}</small>
        {error && (
          <div className="console-error-text" role="alert">
            {error}
          </div>
        )}
      </td>
      <td colSpan={editing ? 2 : 1}>
        {editing ? (
          <form onSubmit={prices.onSubmit} noValidate>
            <input
              aria-label={`Dedicated price of ${c.label}`}
              aria-invalid={prices.errors.dedicated ? true : undefined}
              size={8}
              value={prices.values.dedicated}
              onChange={(e) => prices.setValues({ ...prices.values, dedicated: e.target.value })}
            />
            <input
              aria-label={`Cloud price of ${c.label}`}
              aria-invalid={prices.errors.cloud ? true : undefined}
              size={8}
              value={prices.values.cloud}
              onChange={(e) => prices.setValues({ ...prices.values, cloud: e.target.value })}
            />
            <br />
            <small>Campaign (below the regular prices):</small>{' '}
            <input
              aria-label={`Campaign dedicated price of ${c.label}`}
              aria-invalid={prices.errors.campaign_dedicated ? true : undefined}
              size={8}
              value={prices.values.campaign_dedicated}
              onChange={(e) => prices.setValues({ ...prices.values, campaign_dedicated: e.target.value })}
            />
            <input
              aria-label={`Campaign cloud price of ${c.label}`}
              aria-invalid={prices.errors.campaign_cloud ? true : undefined}
              size={8}
              value={prices.values.campaign_cloud}
              onChange={(e) => prices.setValues({ ...prices.values, campaign_cloud: e.target.value })}
            />
            <button type="submit" className="btn btn-primary btn-sm" disabled={prices.pending}>
              Save prices
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <button
            type="button"
            className="btn-link"
            aria-label={`Edit prices of ${c.label}`}
            onClick={() => {
              prices.setValues(pricesOf(c));
              setEditing(true);
            }}
          >
            {c.dedicated_price}
          </button>
        )}
      </td>
      {!editing && <td>{c.cloud_price}</td>}
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
            onClick={() =>
              void confirm.ask({
                title: `Delist ${c.label}?`,
                effect: delistEffect(c.label, c.hosted),
                confirmLabel: `Delist ${c.label}`,
                busyLabel: 'Delisting…',
                danger: true,
                action: () => delist.mutateAsync({ coin: c.id }),
              })
            }
          >
            Delist
          </button>
        )}
      </td>
      <td>{c.hosted}</td>
      <ReadinessCell row={readiness} />
      {confirm.dialog}
    </tr>
  );
}

/** What delisting does (the spec's coin states): the Delisted section holds it while it hosts nodes. */
function delistEffect(label: string, hosted: number): string {
  return hosted === 0
    ? `No new ${label} node can be deployed, and ${label} leaves the coin lists: it hosts no nodes.`
    : `No new ${label} node can be deployed; ${keepRunning(hosted)}, and ${label} shows under Delisted until they are deleted.`;
}

/** "3 hosted nodes keep running": what maintenance and delisting leave alone. */
function keepRunning(hosted: number): string {
  return hosted === 1 ? '1 hosted node keeps running' : `${hosted} hosted nodes keep running`;
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

/**
 * Daemon images built from their recipes (catalog/images/<profile>), per profile and the
 * coins it serves: a build runs as a background job on the chosen host; its state and the
 * last lines of its output show here until it ends. The CLI's `images build`.
 */
function ImagesSection() {
  const recipes = trpc.console.images.recipes.useQuery(undefined, {
    // Followed while a build is under way; still otherwise.
    refetchInterval: (q) =>
      q.state.data?.some((r) => r.last_build && ['queued', 'running'].includes(r.last_build.state)) ? 1_000 : false,
  });
  const hosts = trpc.console.fleet.hosts.useQuery();
  const dockerHosts = (hosts.data ?? [])
    .filter((h) => h.engine === 'docker' && h.state === 'active')
    .map((h) => h.name);
  return (
    <section className="console-section" aria-labelledby="images-h">
      <h2 id="images-h">Daemon images</h2>
      <p>
        Build a coin&apos;s daemon image from its recipe on a Docker/Podman host; nodes on that host run it. Recipes
        without a pinned checksum need the release archive&apos;s SHA-256: take it from the project&apos;s signed
        checksum file (verify its signature with the project&apos;s release key) or its gitian/guix signatures, never
        from the place the archive came from alone.
      </p>
      <QueryState query={recipes} what="The image recipes">
        {(list) => (
          <table className="console-table">
            <thead>
              <tr>
                <th>Profile</th>
                <th>Coins</th>
                <th>Image</th>
                <th>Build</th>
                <th>Last build</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <RecipeRow key={r.profile} recipe={r} hosts={dockerHosts} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}

function RecipeRow({ recipe: r, hosts }: { recipe: Recipe; hosts: string[] }) {
  const utils = trpc.useUtils();
  const [host, setHost] = useState('');
  const [sha256, setSha256] = useState('');
  const build = trpc.console.images.build.useMutation({
    onSuccess: () => utils.console.images.recipes.invalidate(),
  });
  const chosen = host || hosts[0] || '';
  const b = r.last_build;
  const busy = b !== null && (b.state === 'queued' || b.state === 'running');
  return (
    <tr data-profile={r.profile}>
      <td>{r.profile}</td>
      <td>{r.coins.join(', ') || '-'}</td>
      <td>
        <code>{r.image}</code>
      </td>
      <td>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            build.mutate({ profile: r.profile, host: chosen, ...(sha256.trim() ? { sha256: sha256.trim() } : {}) });
          }}
        >
          <select aria-label={`Host to build ${r.profile} on`} value={chosen} onChange={(e) => setHost(e.target.value)}>
            {hosts.length === 0 && <option value="">no Docker/Podman host</option>}
            {hosts.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
          {r.needs_sha256 && (
            <input
              aria-label={`SHA-256 of the ${r.profile} release archive`}
              placeholder="SHA-256 of the release archive"
              size={20}
              value={sha256}
              onChange={(e) => setSha256(e.target.value)}
            />
          )}
          <button type="submit" className="btn btn-sm" disabled={!chosen || build.isPending}>
            Build image
          </button>
          {build.isError && (
            <div className="console-error-text" role="alert">
              {errorMessage(build.error)}
            </div>
          )}
        </form>
      </td>
      <td aria-label={`Last build of ${r.profile}`}>
        {b ? (
          <>
            <strong>{b.state}</strong> on {b.host}
            {b.error && <div className="console-error-text">{b.error}</div>}
            {b.log_tail && (busy || b.state === 'failed') && <pre className="console-logs">{b.log_tail}</pre>}
          </>
        ) : (
          'never built here'
        )}
      </td>
    </tr>
  );
}
