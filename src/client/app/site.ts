export const APP_NAME = 'Nodekeep';
export const DEFAULT_TITLE = `${APP_NAME} · Masternode hosting`;

/** "Login · Nodekeep", or the generic title for pages without one. */
export function pageTitle(title?: string): string {
  return title ? `${title} · ${APP_NAME}` : DEFAULT_TITLE;
}

/**
 * The `redirect` query of /login, when it is safe to follow: a path on this site.
 * "//evil.example" and "/\evil.example" are other sites to a browser.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  try {
    const url = new URL(target, window.location.origin);
    return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}
