import { useLoadingTooLong } from './loadingWatchdog';

/**
 * Shown while a page waits for its code or its first data. A wait that lasts too long
 * (loadingWatchdog.ts) turns into an error with a Retry button: whatever held it up (a
 * request that never ended, a chunk that never arrived), the customer is never left
 * looking at a spinner.
 */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  const tooLong = useLoadingTooLong();
  if (tooLong) return <LoadingTooLong />;
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A reload fetches the page's code and data afresh, over new connections if need be. */
function LoadingTooLong() {
  return (
    <div className="card route-error" role="alert">
      <h2>This page is taking too long to load</h2>
      <p className="muted">
        Please check your internet connection and press Retry. If it keeps happening, contact support.
      </p>
      <p className="route-error-actions">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Retry
        </button>
      </p>
    </div>
  );
}
