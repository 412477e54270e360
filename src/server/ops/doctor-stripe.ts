import { checkStripeKey } from '../billing/card/key-check';
import type { Config } from '../kernel/config';
import type { CheckResult } from './doctor-result';

const mode = (key: string) => (/^(sk|rk|pk)_live_/.test(key) ? 'live' : 'test');

/**
 * The Stripe keys: the secret key accepted by the API base the payments use, and the
 * publishable key of the same mode (a test publishable key beside a live secret key
 * opens a checkout the live account never sees). Without keys card payments are off,
 * which is a choice, not a fault.
 */
export async function checkStripe(config: Pick<Config, 'stripe'>, timeoutMs?: number): Promise<CheckResult> {
  const name = 'Stripe';
  const c = config.stripe;
  if (!c) return { name, ok: true, detail: 'no keys set: card payments are off' };
  const base = c.apiBase ? `${c.apiBase.protocol}://${c.apiBase.host}:${c.apiBase.port}` : 'api.stripe.com';
  if (mode(c.secretKey) !== mode(c.publishableKey))
    return {
      name,
      ok: false,
      detail: `STRIPE_SECRET_KEY is a ${mode(c.secretKey)} key but STRIPE_PUBLISHABLE_KEY a ${mode(c.publishableKey)} key`,
      advice: "set both from the same mode of the Stripe dashboard's API keys page",
    };
  const answer = await checkStripeKey(c, timeoutMs);
  if (answer.kind === 'refused')
    return {
      name,
      ok: false,
      detail: `${base} refused STRIPE_SECRET_KEY: ${answer.message}`,
      advice: "set STRIPE_SECRET_KEY to the secret key on the Stripe dashboard's API keys page",
    };
  if (answer.kind === 'unreachable')
    return {
      name,
      ok: false,
      detail: `${base} did not answer: ${answer.message}`,
      advice: c.apiBase
        ? 'check STRIPE_API_BASE and that this machine reaches it'
        : 'check that this machine reaches api.stripe.com (DNS, firewall, proxy)',
    };
  return { name, ok: true, detail: `${base} accepted the secret key (${answer.livemode ? 'live' : 'test'} mode)` };
}
