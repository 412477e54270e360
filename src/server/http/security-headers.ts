import type { MiddlewareHandler } from 'hono';
import type { Config } from '../kernel/config';

/** Paths whose answers belong to one caller: never stored by a browser or a proxy. */
export const PRIVATE_PREFIXES = ['/trpc', '/api/', '/public_api/', '/metrics'];
/** Public documentation under /api, which may be cached like any page. */
const PUBLIC_DOCS = new Set(['/api/docs', '/api/docs.css', '/api/openapi.json']);

/**
 * The Content-Security-Policy: everything from this origin only, no inline script
 * (the built client has none; test/security-headers.test.ts checks), no plugins, no
 * framing. Images may be data: URLs (2FA QR codes) and come from COIN_LOGO_URL's
 * origin when logos are hosted elsewhere.
 */
export function contentSecurityPolicy(config: Pick<Config, 'coinLogoUrl'>): string {
  const logoOrigin = /^https?:\/\//.test(config.coinLogoUrl) ? ` ${new URL(config.coinLogoUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${logoOrigin}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Browser hardening on every answer; `no-store` on every private one. */
export function securityHeaders(config: Pick<Config, 'coinLogoUrl' | 'publicUrl'>): MiddlewareHandler {
  const csp = contentSecurityPolicy(config);
  const https = config.publicUrl.startsWith('https://');
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('content-security-policy', csp);
    h.set('x-content-type-options', 'nosniff');
    h.set('x-frame-options', 'DENY');
    // Verify and reset links carry a token in the URL: never send it on to another site.
    h.set('referrer-policy', 'no-referrer');
    h.set('cross-origin-opener-policy', 'same-origin');
    if (https) h.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
    const p = c.req.path;
    if (PRIVATE_PREFIXES.some((x) => p.startsWith(x)) && !PUBLIC_DOCS.has(p)) h.set('cache-control', 'no-store');
  };
}
