import type { ReactNode } from 'react';
import { errorMessage } from '../app/errors';
import { Alert } from './Alert';
import { PageLoading } from './Spinner';

/** The parts of a query result QueryState reads (TanStack's and tRPC's results both fit). */
export type QueryLike<T> = { data: T | undefined; isError: boolean; error: unknown; refetch: () => unknown };

type Props<T> = {
  query: QueryLike<T>;
  /** What failed to load, as the start of a sentence: "The coin list", "Your nodes". */
  what: string;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
};

/**
 * A query's three states: loading, the error with a "Try again" button, or the data.
 * Data comes first: a failed background refetch keeps what is on screen.
 */
export function QueryState<T>({ query, what, loadingLabel, children }: Props<T>) {
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <QueryError what={what} error={query.error} retry={() => void query.refetch()} />;
  return <PageLoading label={loadingLabel} />;
}

export function QueryError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <Alert kind="error">
      {what} could not be loaded: {errorMessage(error)}{' '}
      <button type="button" className="btn-link" onClick={retry}>
        Try again
      </button>
    </Alert>
  );
}
