import type { Hono } from 'hono';
import type { AppDeps } from '../../rpc/context';
import { cardGateway, WebhookSignatureError } from './gateway';
import { handleCardEvent } from './webhook';

/** Where Stripe sends its events (README: STRIPE_WEBHOOK_SECRET). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe_webhook';

/**
 * Stripe's webhook: no login, the signature is the proof. The body is read as raw bytes
 * and verified by the SDK before it is parsed; anything unsigned, signed with another
 * secret, or signed more than five minutes ago (a replay) is refused and changes nothing.
 */
export function mountStripeWebhook(app: Hono<any>, deps: Pick<AppDeps, 'db' | 'hub' | 'mail' | 'log' | 'config'>) {
  app.post(STRIPE_WEBHOOK_PATH, async (c) => {
    const gateway = cardGateway(deps.config);
    if (!gateway) return c.json({ success: false, message: 'Card payments are not set up on this server.' }, 404);
    const raw = Buffer.from(await c.req.arrayBuffer());
    let event;
    try {
      event = gateway.verifyEvent(raw, c.req.header('stripe-signature'));
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      deps.log.warn('stripe webhook refused', { err: err.message });
      return c.json({ success: false, message: `Webhook signature refused: ${err.message}` }, 400);
    }
    const answer = await handleCardEvent(deps, event);
    return c.json({ success: answer.status === 200, message: answer.message }, answer.status);
  });
}
