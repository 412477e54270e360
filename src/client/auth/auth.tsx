import { type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { Profile } from '../../shared/schemas/auth';
import { isServerFault, isUnauthorized } from '../app/errors';
import { tokenStore } from '../app/storage';
import { createTrpcClient, trpc } from '../app/trpc';

export function useToken(): string | null {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.get);
}

/**
 * Gives the tree a tRPC client made for the current token and closes the previous
 * one's websocket when the token changes (login, logout, a 401, another tab).
 */
export function ApiProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const token = useToken();
  const api = useMemo(() => createTrpcClient(token), [token]);
  useEffect(() => () => api.close(), [api]);
  return (
    <trpc.Provider client={api.client} queryClient={queryClient}>
      {children}
    </trpc.Provider>
  );
}

export type Session = {
  /** loading: first answers pending; failed: the server could not be reached; ready: render the app. */
  startup: 'loading' | 'failed' | 'ready';
  maintenance: boolean;
  token: string | null;
  /** The logged-in user's profile, null for a visitor. */
  user: Profile | null;
  /** A token is stored but its profile has not arrived yet: guards wait instead of redirecting. */
  checking: boolean;
  signIn(token: string, qrKey?: string): void;
  signOut(): Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The logged-in user; only for components that render under a login guard. */
export function useUser(): Profile {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a logged-in user');
  return user;
}

/**
 * Start-up and login state. `system.status` tells visitors about maintenance;
 * `get_common_info` with the stored token decides whether the user is logged in. A
 * 401 clears the token (see queryClient.ts); the query cache is emptied whenever
 * the token changes, so one user's data never shows for another.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const token = useToken();
  const status = trpc.system.status.useQuery(undefined, { staleTime: 60_000 });
  const info = trpc.auth.get_common_info.useQuery(undefined, { enabled: token !== null });
  const logout = trpc.auth.logout.useMutation();

  // Once the app has rendered, a later failed refetch must not swap it for the error page.
  const [started, setStarted] = useState(false);
  let startup: Session['startup'] = 'ready';
  if (!started) {
    const infoFailed = token !== null && info.isError && isServerFault(info.error);
    if ((status.isError && !status.data) || infoFailed) startup = 'failed';
    else if (status.isPending || (token !== null && info.isPending)) startup = 'loading';
  }
  useEffect(() => {
    if (startup === 'ready') setStarted(true);
  }, [startup]);

  const user = token !== null && !isUnauthorized(info.error) ? (info.data?.info ?? null) : null;
  const signIn = useCallback((t: string, qrKey?: string) => tokenStore.set(t, qrKey), []);
  const { mutateAsync: logoutAsync } = logout;
  const signOut = useCallback(async () => {
    try {
      await logoutAsync(undefined);
    } catch {
      // The session may already be gone on the server; forgetting it here is what matters.
    }
    tokenStore.clear();
  }, [logoutAsync]);

  const value: Session = {
    startup,
    maintenance: Boolean(status.data?.maintenance || info.data?.maintenance),
    token,
    user,
    checking: token !== null && info.isPending,
    signIn,
    signOut,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
