import { lazy, type ComponentType } from 'react';

const RELOADED_KEY = 'nodekeep.chunkReload';
/** How long a reload may take to replace the page before the error is shown instead. */
const RELOAD_WAIT_MS = 5_000;

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

function reloadedOnce(): boolean {
  try {
    return sessionStorage.getItem(RELOADED_KEY) !== null;
  } catch {
    return true; // no storage: never risk a reload loop
  }
}

function markReloaded(on: boolean) {
  try {
    if (on) sessionStorage.setItem(RELOADED_KEY, '1');
    else sessionStorage.removeItem(RELOADED_KEY);
  } catch {
    // storage unavailable: nothing to remember
  }
}

/**
 * A page loaded on first use (its own chunk). A chunk that fails to load reloads the
 * page once, which fetches the current build's entry and chunk names; if it fails
 * again the route's error boundary shows the error.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): ComponentType {
  return lazy(async () => {
    try {
      const module = await load();
      markReloaded(false);
      return { default: module[name] as ComponentType };
    } catch (err) {
      if (isChunkLoadError(err) && !reloadedOnce()) {
        markReloaded(true);
        window.location.reload();
        // The reload normally replaces this page first. A browser may drop it (its
        // navigation cancelled): then the route's error card says what happened, where
        // a promise that never settles would leave the page on "Loading…" for good.
        await new Promise((resolve) => setTimeout(resolve, RELOAD_WAIT_MS));
      }
      throw err;
    }
  });
}
