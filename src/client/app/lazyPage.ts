import { lazy, type ComponentType } from 'react';

const RELOADED_KEY = 'nodekeep.chunkReload';
/** How long a reload may take to replace the page before the error is shown instead. */
const RELOAD_WAIT_MS = 5_000;
/**
 * The pauses before asking again, in the page, for code that could not be fetched.
 * Chromium fails every request in flight with ERR_NETWORK_CHANGED whenever the machine's
 * network changes (a container starting or stopping adds or removes an interface); the
 * change is over well within these, and a reload made during it fails too.
 */
const RETRY_WAITS_MS = [500, 1_500];

/**
 * True for a page's code that could not be fetched: after a deploy the old build's
 * hashed chunks are gone, or the network dropped.
 */
export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    err.message,
  );
}

/**
 * The pages whose failed code made the tab reload, not yet loaded since. While any is
 * there, a failing page shows its error instead of reloading again (no reload loop); a
 * page's own success takes only its own name off, so another chunk loading fine after the
 * reload (the chat, live events) does not clear the way for a second reload.
 */
function reloadedFor(): string[] {
  try {
    const raw = sessionStorage.getItem(RELOADED_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return ['storage']; // no storage: never risk a reload loop
  }
}

function markReloaded(name: string, on: boolean) {
  try {
    const names = new Set(reloadedFor());
    if (on) names.add(name);
    else names.delete(name);
    if (names.size) sessionStorage.setItem(RELOADED_KEY, JSON.stringify([...names]));
    else sessionStorage.removeItem(RELOADED_KEY);
  } catch {
    // storage unavailable: nothing to remember
  }
}

/**
 * Stylesheets of lazily loaded pages whose request failed. Vite's preload counts a
 * stylesheet as done once it has failed, so asking for the page's code again would
 * show the page without its styles: these are fetched again first.
 */
const failedSheets = new Set<HTMLLinkElement>();
if (typeof document !== 'undefined') {
  // A link's error event does not bubble; the capture phase still sees it here.
  document.addEventListener(
    'error',
    (e) => {
      if (e.target instanceof HTMLLinkElement && e.target.rel === 'stylesheet') failedSheets.add(e.target);
    },
    true,
  );
}

/** Puts a fresh copy of each failed stylesheet in place of the old one; rejects if one fails again. */
async function refetchFailedSheets(): Promise<void> {
  const failed = [...failedSheets];
  failedSheets.clear();
  await Promise.all(
    failed.map(
      (old) =>
        new Promise<void>((resolve, reject) => {
          const link = old.cloneNode() as HTMLLinkElement;
          link.addEventListener('load', () => resolve());
          link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${link.href}`)));
          old.replaceWith(link);
        }),
    ),
  );
}

/** The page's code, asked for again in the page after a failed fetch (RETRY_WAITS_MS). */
async function loadWithRetries<M>(load: () => Promise<M>): Promise<M> {
  for (let attempt = 0; ; attempt++) {
    try {
      if (attempt > 0) await refetchFailedSheets();
      return await load();
    } catch (err) {
      if (!isChunkLoadError(err) || attempt >= RETRY_WAITS_MS.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_WAITS_MS[attempt]));
    }
  }
}

/**
 * A page loaded on first use (its own chunk). Code that could not be fetched is asked
 * for again in the page (a dropped request); if it still fails the page reloads once,
 * which fetches the current build's entry and chunk names (after a deploy the old
 * build's chunks are gone); if it fails again the route's error boundary shows the error.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): M[K] extends ComponentType<infer P> ? ComponentType<P> : ComponentType {
  // The cast keeps the component's own props (TimeChart's series, the chat panel's).
  return lazy(async () => {
    try {
      const module = await loadWithRetries(load);
      markReloaded(String(name), false);
      return { default: module[name] as ComponentType };
    } catch (err) {
      if (isChunkLoadError(err) && reloadedFor().length === 0) {
        markReloaded(String(name), true);
        window.location.reload();
        // The reload normally replaces this page first. A browser may drop it (its
        // navigation cancelled): then the route's error card says what happened, where
        // a promise that never settles would leave the page on "Loading…" for good.
        await new Promise((resolve) => setTimeout(resolve, RELOAD_WAIT_MS));
      }
      throw err;
    }
  }) as never; // lazy() is typed for a props-less page here; the result carries M[K]'s props
}

/**
 * A part of the page that it works without (the support chat, live events): its code is
 * asked for again like a page's, but if it still cannot be fetched the part is left out
 * (renders nothing) rather than reloading the tab or taking the page down with it.
 */
export function lazyPart<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): M[K] extends ComponentType<infer P> ? ComponentType<P> : ComponentType {
  return lazy(async () => {
    try {
      const module = await loadWithRetries(load);
      return { default: module[name] as ComponentType };
    } catch (err) {
      if (!isChunkLoadError(err)) throw err;
      return { default: () => null };
    }
  }) as never; // as in lazyPage: the result carries M[K]'s props
}
