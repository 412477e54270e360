import Stripe from 'stripe';
import type { StripeConfig } from '../../kernel/config';

/**
 * The small typed adapter around the Stripe SDK: the Checkout calls we make and the
 * webhook check. Every call that changes something at Stripe carries the caller's
 * idempotency key. Errors are sorted into two kinds: `definite` (Stripe refused and did
 * nothing, e.g. a bad request) and `ambiguous` (network, timeout, Stripe's 5xx: the call
 * may or may not have happened), so callers never treat an unknown outcome as a failure.
 */

/** What we read of a Checkout session. */
export type CheckoutSession = {
  id: string;
  url: string | null;
  status: string | null;
  payment_status: string;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
};

export type NewCheckout = { userId: number; cents: number; successUrl: string; cancelUrl: string; description: string };

export class GatewayError extends Error {
  constructor(
    message: string,
    /** True when the outcome at Stripe is unknown (the call may have been applied). */
    readonly ambiguous: boolean,
  ) {
    super(message);
  }
}

/** A webhook that failed verification: bad or missing signature, or a timestamp out of tolerance. */
export class WebhookSignatureError extends Error {}

export type CardGateway = {
  createSession(c: NewCheckout, idempotencyKey: string): Promise<CheckoutSession>;
  retrieveSession(id: string): Promise<CheckoutSession>;
  expireSession(id: string, idempotencyKey: string): Promise<CheckoutSession>;
  /** Stripe's fingerprint of the card that paid the session (the same card has the same one on every account); null when it was not paid by card. */
  cardFingerprint(sessionId: string): Promise<string | null>;
  /** The verified event from the raw body bytes and the Stripe-Signature header. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event;
};

function toSession(s: Stripe.Checkout.Session): CheckoutSession {
  return {
    id: s.id,
    url: s.url,
    status: s.status,
    payment_status: s.payment_status,
    amount_total: s.amount_total,
    currency: s.currency,
    client_reference_id: s.client_reference_id,
    metadata: (s.metadata ?? {}) as Record<string, string>,
  };
}

function sorted(err: unknown): never {
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode ?? 0;
    const ambiguous =
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeAPIError ||
      status >= 500 ||
      status === 0 ||
      status === 429;
    throw new GatewayError(err.message, ambiguous);
  }
  throw new GatewayError(err instanceof Error ? err.message : String(err), true);
}

const gateways = new WeakMap<StripeConfig, CardGateway>();

/** The gateway for a configuration (one SDK client per configuration); null while card payments are off. */
export function cardGateway(config: { stripe: StripeConfig | null }): CardGateway | null {
  const c = config.stripe;
  if (!c) return null;
  let g = gateways.get(c);
  if (!g) {
    g = makeGateway(c);
    gateways.set(c, g);
  }
  return g;
}

function makeGateway(c: StripeConfig): CardGateway {
  const stripe = new Stripe(c.secretKey, {
    // One retry on a network failure, with the same idempotency key: Stripe applies the call once.
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(c.apiBase ? { host: c.apiBase.host, port: c.apiBase.port, protocol: c.apiBase.protocol } : {}),
  });
  return {
    async createSession(n, idempotencyKey) {
      try {
        const s = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: 'usd', unit_amount: n.cents, product_data: { name: n.description } },
              },
            ],
            client_reference_id: String(n.userId),
            metadata: { user_id: String(n.userId) },
            success_url: n.successUrl,
            cancel_url: n.cancelUrl,
          },
          { idempotencyKey },
        );
        return toSession(s);
      } catch (err) {
        sorted(err);
      }
    },
    async retrieveSession(id) {
      try {
        return toSession(await stripe.checkout.sessions.retrieve(id));
      } catch (err) {
        sorted(err);
      }
    },
    async cardFingerprint(sessionId) {
      try {
        // Asked before the credit, while Stripe waits for the webhook's answer: one attempt
        // of at most 5 s (no retry: the client's retry would double it), so the credit waits
        // 5 s at worst; an unknown card only holds the referral bonus for the operator.
        const s = await stripe.checkout.sessions.retrieve(
          sessionId,
          { expand: ['payment_intent.payment_method'] },
          { timeout: 5_000, maxNetworkRetries: 0 },
        );
        const intent = typeof s.payment_intent === 'object' ? s.payment_intent : null;
        const method = intent && typeof intent.payment_method === 'object' ? intent.payment_method : null;
        return method?.card?.fingerprint ?? null;
      } catch (err) {
        sorted(err);
      }
    },
    async expireSession(id, idempotencyKey) {
      try {
        return toSession(await stripe.checkout.sessions.expire(id, {}, { idempotencyKey }));
      } catch (err) {
        sorted(err);
      }
    },
    verifyEvent(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, c.webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'The webhook signature is not valid.');
      }
    },
  };
}
