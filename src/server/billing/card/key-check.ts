import Stripe from 'stripe';
import type { StripeConfig } from '../../kernel/config';

/** What Stripe said of the secret key: accepted (test or live mode), refused, or no answer at all. */
export type StripeKeyAnswer =
  | { kind: 'accepted'; livemode: boolean }
  | { kind: 'refused'; message: string }
  | { kind: 'unreachable'; message: string };

/**
 * Reads the account's balance (`GET /v1/balance`), the cheapest call that needs a valid
 * secret key and changes nothing, through the same API base the payments use.
 */
export async function checkStripeKey(c: StripeConfig, timeoutMs = 10_000): Promise<StripeKeyAnswer> {
  const stripe = new Stripe(c.secretKey, {
    maxNetworkRetries: 0,
    timeout: timeoutMs,
    telemetry: false,
    ...(c.apiBase ? { host: c.apiBase.host, port: c.apiBase.port, protocol: c.apiBase.protocol } : {}),
  });
  try {
    const balance = await stripe.balance.retrieve();
    return { kind: 'accepted', livemode: balance.livemode };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError)
      return { kind: 'refused', message: err.message };
    return { kind: 'unreachable', message: err instanceof Error ? err.message : String(err) };
  }
}
