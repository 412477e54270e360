import { useState } from 'react';
import { Link } from 'wouter';
import { trpc } from '../app/trpc';
import { errorMessage } from '../app/errors';

/** This month, UTC, as statements name months ("2026-11"). */
export const thisMonth = () => new Date().toISOString().slice(0, 7);

/**
 * The history's exports on the Billing page: the whole history as a CSV file (read
 * through the API like every call, saved by the browser) and the monthly statements.
 */
export function MoneyExports() {
  const utils = trpc.useUtils();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const file = await utils.billing.export_transactions.fetch(undefined, { staleTime: 0 });
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="money-exports">
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => void download()} disabled={busy}>
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      <Link href={`/dashboard/billing/statement?month=${thisMonth()}`} className="btn btn-secondary btn-sm">
        Monthly statements
      </Link>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
