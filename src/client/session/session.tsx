import { type QueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { Profile, SupportInfo } from '../../shared/schemas/auth';
import { isUnauthorized } from '../app/errors';
import { profileProblem, startupOf } from './startup';
import { supportStore, tokenStore } from '../app/storage';
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
  /**
   * loading: first answers pending; failed: the server could not be reached, or refused
   * the first calls for the call budget (`startupError` says which); ready: render the app.
   */
  startup: 'loading' | 'failed' | 'ready';
  /** Why start-up failed (the error of the first call that did). */
  startupError: unknown;
  maintenance: boolean;
  /** The operator's support address ('' when none) and community links. */
  support: SupportInfo;
  token: string | null;
  /** The logged-in user's profile, null for a visitor. */
  user: Profile | null;
  /** A token is stored but its profile has not arrived yet: guards wait instead of redirecting. */
  checking: boolean;
  /**
   * A token is stored but its profile could not be loaded, and the session did not end
   * (a refusal for the call budget, the network): guards say so instead of redirecting.
   */
  profileError: unknown;
  retryProfile(): void;
  signIn(token: string, qrKey?: string): void;
  signOut(): Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

const STATUS_RECHECK_MS = 60_000;
const MAINTENANCE_RECHECK_MS = 15_000;
const NO_SUPPORT: SupportInfo = { email: '', community: [] };

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
  // Visitors have no live channel: an open tab asks now and then (and when it regains
  // focus), so it switches to the maintenance app and back by itself.
  const status = trpc.system.status.useQuery(undefined, {
    staleTime: 10_000,
    refetchInterval: (q) => (q.state.data?.maintenance ? MAINTENANCE_RECHECK_MS : STATUS_RECHECK_MS),
    refetchOnWindowFocus: true,
  });
  const info = trpc.auth.get_common_info.useQuery(undefined, { enabled: token !== null });
  const utils = trpc.useUtils();

  // The profile said maintenance while the status says none: the status is the older answer.
  const infoSaysMaintenance = info.data?.maintenance === true;
  const statusSaysMaintenance = status.data?.maintenance;
  useEffect(() => {
    if (infoSaysMaintenance && statusSaysMaintenance === false) void utils.system.status.invalidate();
  }, [infoSaysMaintenance, statusSaysMaintenance, utils]);

  const support = status.data?.support;
  useEffect(() => {
    if (support) supportStore.set(support);
  }, [support]);
  const logout = trpc.auth.logout.useMutation();

  // Once the app has rendered, a later failed refetch must not swap it for the error page.
  const [started, setStarted] = useState(false);
  const first = started ? null : startupOf(token, status, info);
  const startup: Session['startup'] = first?.state ?? 'ready';
  const startupError = first?.error ?? null;
  useEffect(() => {
    if (startup === 'ready') setStarted(true);
  }, [startup]);

  const user = token !== null && !isUnauthorized(info.error) ? (info.data?.info ?? null) : null;
  const profileError = profileProblem(token, info);
  const { refetch: refetchProfile } = info;
  const retryProfile = useCallback(() => void refetchProfile(), [refetchProfile]);
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
    startupError,
    // system.status is asked again whenever anything hints at a change, so it decides.
    maintenance: status.data?.maintenance ?? infoSaysMaintenance,
    support: support ?? supportStore.get() ?? NO_SUPPORT,
    token,
    user,
    checking: token !== null && info.isPending,
    profileError,
    retryProfile,
    signIn,
    signOut,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
