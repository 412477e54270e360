import { errorCode, isServerFault, isUnauthorized } from '../app/errors';

/** The parts of a query the start-up decision reads. */
export type QueryView = { isPending: boolean; isError: boolean; error: unknown; data: unknown };

export type Startup = {
  /** loading: first answers pending; failed: see `error`; ready: render the app. */
  state: 'loading' | 'failed' | 'ready';
  /** Why start-up failed: the server unreachable or failing, or a refusal for the call budget. */
  error: unknown;
};

/**
 * Which app to show before the first render of the real one: `system.status` must have
 * answered, and with a stored token so must the profile. A refused profile (the account's
 * script spent its call budget) is no logout: starting as a visitor's app would send the
 * customer to /login, so it fails start-up with the refusal's words instead.
 */
export function startupOf(token: string | null, status: QueryView, info: QueryView): Startup {
  if (status.isError && !status.data) return { state: 'failed', error: status.error };
  if (token !== null && profileProblem(token, info) && (isServerFault(info.error) || refused(info.error)))
    return { state: 'failed', error: info.error };
  if (status.isPending || (token !== null && info.isPending)) return { state: 'loading', error: null };
  return { state: 'ready', error: null };
}

/**
 * The error that keeps a stored token's profile from loading, when it is not the end of
 * the session (a 401 clears the token instead): a refusal, a server fault, the network.
 * Pages for signed-in users show it with "Try again" rather than the login page.
 */
export function profileProblem(token: string | null, info: QueryView): unknown {
  if (token === null || info.data !== undefined || !info.isError || isUnauthorized(info.error)) return null;
  return info.error;
}

const refused = (err: unknown) => errorCode(err) === 'TOO_MANY_REQUESTS';
