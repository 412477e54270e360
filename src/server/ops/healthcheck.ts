import * as v from 'valibot';
import type { Config } from '../kernel/config';

/** Longer than /readyz's own bound (2 s for the database), shorter than a container engine's usual 30 s. */
const HEALTHCHECK_TIMEOUT_MS = 5_000;

/** What /readyz answers (ops/readiness.ts): only what the probe prints is read. */
const ReadyzAnswer = v.object({
  ok: v.boolean(),
  checks: v.optional(v.record(v.string(), v.object({ ok: v.boolean(), error: v.optional(v.string()) }))),
});

/**
 * Where this machine reaches its own server's /readyz: HOST, except that an address
 * meaning "every address" is reached on loopback (a container's probe runs beside the
 * server, which listens on 0.0.0.0 there).
 */
export function readyzUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host =
    config.host === '0.0.0.0'
      ? '127.0.0.1'
      : config.host === '::'
        ? '[::1]'
        : config.host.includes(':')
          ? `[${config.host}]`
          : config.host;
  return `http://${host}:${config.port}/readyz`;
}

export type HealthcheckResult = { ok: true; detail: string } | { ok: false; detail: string };

/**
 * One GET of /readyz: ready when it answers 200. For a container engine's HEALTHCHECK,
 * whose slim base has no curl: the executable probes itself.
 */
export async function probeReadyz(url: string): Promise<HealthcheckResult> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(HEALTHCHECK_TIMEOUT_MS), redirect: 'manual' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, detail: `${url} did not answer: ${cause?.code ?? cause?.message ?? (err as Error).message}` };
  }
  const text = await res.text().catch(() => '');
  if (res.status === 200) return { ok: true, detail: `${url} answers: ready` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const answer = v.safeParse(ReadyzAnswer, parsed);
  const failing = answer.success
    ? Object.entries(answer.output.checks ?? {})
        .filter(([, c]) => !c.ok)
        .map(([name, c]) => (c.error ? `${name} (${c.error})` : name))
    : [];
  return {
    ok: false,
    detail: `${url} answers ${res.status}${failing.length ? `: not ready: ${failing.join(', ')}` : ''}`,
  };
}
