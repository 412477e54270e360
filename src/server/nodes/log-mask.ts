import { MASKED } from '../../shared/node-maintenance';

/**
 * A daemon's log as its owner may read it: every secret the platform wrote for the node
 * (`secrets`: its RPC password, keys, tokens) replaced wherever it appears, and the value
 * of any setting or argument whose name says it holds a secret (a daemon echoing its
 * config, `-rpcpassword=…`, an `Authorization` header), including ones the platform did
 * not write (a key the owner gave a daemon some other way).
 */
const SECRET_SETTING =
  /\b([\w.-]*(?:password|passwd|privkey|priv_key|private_key|secret|token|rpcauth|mnemonic)[\w.-]*)(["']?\s*[=:]\s*["']?)([^\s"',;]+)/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** Shorter values would mask ordinary words and numbers; the platform's secrets are longer. */
const MIN_SECRET = 6;

export function maskLog(text: string, secrets: Array<string | null | undefined>): string {
  let out = text;
  // Longest first: a secret containing another is masked whole.
  const values = [...new Set(secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );
  for (const s of values) out = out.split(s).join(MASKED);
  out = out.replace(SECRET_SETTING, (_m, name: string, sep: string, value: string) =>
    value === MASKED ? `${name}${sep}${value}` : `${name}${sep}${MASKED}`,
  );
  return out.replace(BEARER, (_m, scheme: string) => `${scheme} ${MASKED}`);
}
