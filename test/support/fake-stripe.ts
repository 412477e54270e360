import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startTestServer, stopTestServer, type TestServer } from './server';

/**
 * A FAKE of Stripe's HTTP API (a SaaS that cannot run here), on loopback, for the few
 * calls Nodekeep makes through the official SDK (pointed here with its host/port/protocol
 * options, via STRIPE_API_BASE):
 * - `POST /v1/checkout/sessions` (form-encoded, as the SDK sends it),
 * - `GET /v1/checkout/sessions/:id` (with `expand[]=payment_intent.payment_method`, the
 *   paid session's payment intent and its card, whose fingerprint the test chose),
 * - `POST /v1/checkout/sessions/:id/expire` (only an open session can be expired),
 * - `GET /v1/balance` (doctor's key check).
 * Requests need `Authorization: Bearer <secret key>`. Idempotency-Key is honoured as
 * Stripe does: a repeat with the same body gets the first answer again (header
 * `Idempotent-Replayed: true`), with another body a 400 `idempotency_error`.
 * Test controls: `complete(id, { fingerprint })` pays a session as a customer would (with
 * the card of that fingerprint; a new card each time unless given); `failNext(n, how)`
 * makes the next n calls fail with a 500 or a dropped connection, before or after the
 * call is applied (the ambiguous outcomes). `refund(id, cents)` and `dispute(id, cents)`
 * take a paid session's charge back as the customer's bank would (the objects the
 * `charge.*` events carry). Webhooks are signed with the SDK's own
 * `webhooks.generateTestHeaderString`.
 */

export type FakeSession = {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  mode: string;
  url: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  created: number;
  /** Set when the session is paid, as Stripe does. */
  payment_intent: string | null;
};

/** The charge of a paid session, as `charge.*` events carry it. */
export type FakeCharge = {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  paid: true;
  refunded: boolean;
  status: 'succeeded';
};
/** A dispute of a charge, as `charge.dispute.*` events carry it. */
export type FakeDispute = {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: string;
  reason: string;
};

type Failure = 'status500' | 'drop' | 'drop_after_apply';

/** `a[b][0][c]=1` form bodies into nested objects/arrays (enough for what the SDK sends). */
function parseForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const path = k.replace(/\]/g, '').split('[');
    let node: any = out;
    path.forEach((p, i) => {
      if (i === path.length - 1) node[p] = v;
      else node = node[p] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
    });
  }
  return out;
}

const stripeError = (type: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { type, message, ...extra },
});

export async function startFakeStripe(opts: { secretKey: string }) {
  const sessions = new Map<string, FakeSession>();
  const idempotency = new Map<string, { body: string; status: number; answer: unknown }>();
  const requests: { method: string; path: string; idempotencyKey: string | null }[] = [];
  const failures: Failure[] = [];
  /** The card fingerprint each paid session's payment method has, by session id. */
  const cards = new Map<string, string>();
  const charges = new Map<string, FakeCharge>();
  let base = '';
  const chargeOf = (sessionId: string): FakeCharge => {
    const c = charges.get(sessionId);
    if (!c) throw new Error(`fake stripe: session ${sessionId} is not paid`);
    return c;
  };

  /** The session as Stripe answers it, its payment intent and card expanded when asked. */
  function retrieved(s: FakeSession, expand: string[]): unknown {
    if (!s.payment_intent || !(expand.includes('payment_intent') || expand.includes('payment_intent.payment_method')))
      return s;
    const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: cards.get(s.id) ?? null };
    const method = { id: `pm_${s.id.slice(8)}`, object: 'payment_method', type: 'card', card };
    return {
      ...s,
      payment_intent: {
        id: s.payment_intent,
        object: 'payment_intent',
        amount: s.amount_total,
        currency: s.currency,
        status: 'succeeded',
        payment_method: expand.includes('payment_intent.payment_method') ? method : method.id,
      },
    };
  }

  function create(form: Record<string, any>): [number, unknown] {
    const item = form.line_items?.[0];
    const unit = Number(item?.price_data?.unit_amount);
    const qty = Number(item?.quantity ?? 1);
    if (form.mode !== 'payment')
      return [400, stripeError('invalid_request_error', 'mode must be payment in this fake', { param: 'mode' })];
    if (!Number.isInteger(unit) || unit < 50)
      return [
        400,
        stripeError(
          'invalid_request_error',
          "The Checkout Session's total amount due must add up to at least $0.50 usd",
          { param: 'line_items' },
        ),
      ];
    if (!form.success_url)
      return [
        400,
        stripeError('invalid_request_error', 'Missing required param: success_url.', { param: 'success_url' }),
      ];
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    const s: FakeSession = {
      id,
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: unit * qty,
      currency: String(item.price_data.currency),
      mode: 'payment',
      url: `${base}/pay/${id}`,
      client_reference_id: form.client_reference_id ?? null,
      metadata: form.metadata ?? {},
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      created: Math.floor(Date.now() / 1000),
      payment_intent: null,
    };
    sessions.set(id, s);
    return [200, s];
  }

  function route(
    method: string,
    path: string,
    form: Record<string, any>,
    query: Record<string, any>,
  ): [number, unknown] {
    if (method === 'POST' && path === '/v1/checkout/sessions') return create(form);
    // What `nodekeep doctor` reads to prove the secret key works (an empty test-mode account).
    if (method === 'GET' && path === '/v1/balance')
      return [
        200,
        {
          object: 'balance',
          available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          livemode: false,
        },
      ];
    const m = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path);
    const s = m ? sessions.get(m[1]) : undefined;
    if (!m) return [404, stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`)];
    if (!s)
      return [
        404,
        stripeError('invalid_request_error', `No such checkout.session: '${m[1]}'`, { code: 'resource_missing' }),
      ];
    if (method === 'GET' && !m[2]) return [200, retrieved(s, Object.values(query.expand ?? {}).map(String))];
    if (method === 'POST' && m[2]) {
      if (s.status !== 'open')
        return [
          400,
          stripeError('invalid_request_error', 'Only Checkout Sessions with a status in ["open"] can be expired.'),
        ];
      s.status = 'expired';
      s.url = null;
      return [200, s];
    }
    return [404, stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`)];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      // The hosted checkout page the browser is sent to (a stand-in: paying is `complete(id)`).
      if (req.method === 'GET' && path.startsWith('/pay/')) {
        const found = sessions.get(path.slice(5));
        return res
          .writeHead(found ? 200 : 404, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><title>Fake Stripe checkout</title><h1>Fake Stripe checkout ${found ? found.amount_total / 100 : 'not found'}</h1>`,
          );
      }
      requests.push({ method: req.method ?? '', path, idempotencyKey: key });
      const reply = (status: number, answer: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, {
            'content-type': 'application/json',
            'request-id': `req_${randomBytes(6).toString('hex')}`,
            ...headers,
          })
          .end(JSON.stringify(answer));
      if (req.headers.authorization !== `Bearer ${opts.secretKey}`)
        return reply(401, stripeError('invalid_request_error', 'Invalid API Key provided: sk_****'));
      const failure = failures.shift();
      if (failure === 'status500') return reply(500, stripeError('api_error', 'An unknown error occurred (fake).'));
      if (failure === 'drop') return req.socket.destroy();
      if (key && req.method === 'POST') {
        const seen = idempotency.get(key);
        if (seen && seen.body !== body)
          return reply(
            400,
            stripeError(
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            ),
          );
        if (seen) return reply(seen.status, seen.answer, { 'idempotent-replayed': 'true' });
      }
      const [status, answer] = route(
        req.method ?? '',
        path,
        parseForm(body),
        parseForm((req.url ?? '').split('?')[1] ?? ''),
      );
      // Stripe stores the answer of a request it executed, errors included (not 5xx).
      if (key && req.method === 'POST') idempotency.set(key, { body, status, answer: structuredClone(answer) });
      if (failure === 'drop_after_apply') return req.socket.destroy();
      reply(status, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    sessions,
    requests,
    /** The next `n` calls fail this way. */
    failNext(n: number, how: Failure) {
      for (let i = 0; i < n; i++) failures.push(how);
    },
    /** The customer pays the session on the hosted page, with the card of `fingerprint` (a new card unless given). */
    complete(id: string, opts: { fingerprint?: string } = {}): FakeSession {
      const s = sessions.get(id);
      if (!s) throw new Error(`fake stripe: no session ${id}`);
      s.status = 'complete';
      s.payment_status = 'paid';
      s.url = null;
      cards.set(id, opts.fingerprint ?? `fp${randomBytes(8).toString('hex')}`);
      s.payment_intent ??= `pi_test_${randomBytes(12).toString('hex')}`;
      if (!charges.has(id)) {
        charges.set(id, {
          id: `ch_test_${randomBytes(12).toString('hex')}`,
          object: 'charge',
          amount: s.amount_total,
          amount_refunded: 0,
          currency: s.currency,
          payment_intent: s.payment_intent,
          paid: true,
          refunded: false,
          status: 'succeeded',
        });
      }
      return structuredClone(s);
    },
    /** The charge of a paid session as it stands. */
    charge: (sessionId: string): FakeCharge => structuredClone(chargeOf(sessionId)),
    /** Refunds `cents` more of a paid session's charge; the charge after it. */
    refund(sessionId: string, cents: number): FakeCharge {
      const c = chargeOf(sessionId);
      if (c.amount_refunded + cents > c.amount) throw new Error('fake stripe: refund larger than the charge');
      c.amount_refunded += cents;
      c.refunded = c.amount_refunded === c.amount;
      return structuredClone(c);
    },
    /** A dispute of a paid session's charge (the whole charge unless `cents`), in `status`. */
    dispute(sessionId: string, opts: { id?: string; cents?: number; status?: string } = {}): FakeDispute {
      const c = chargeOf(sessionId);
      return {
        id: opts.id ?? `dp_test_${randomBytes(12).toString('hex')}`,
        object: 'dispute',
        amount: opts.cents ?? c.amount,
        currency: c.currency,
        charge: c.id,
        payment_intent: c.payment_intent,
        status: opts.status ?? 'needs_response',
        reason: 'fraudulent',
      };
    },
    /** Stripe expires a session on its own (after 24 hours). */
    expire(id: string): FakeSession {
      const s = sessions.get(id)!;
      s.status = 'expired';
      s.url = null;
      return structuredClone(s);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

const signer = new Stripe('sk_test_signer_only');

/** A Stripe event about a session (or a charge, a dispute), as JSON text, and its Stripe-Signature header (signed `secondsAgo` in the past). */
export function signedEvent(
  type: string,
  session: unknown,
  secret: string,
  opts: { secondsAgo?: number; eventId?: string } = {},
) {
  const payload = JSON.stringify({
    id: opts.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    data: { object: session },
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(Date.now() / 1000) - (opts.secondsAgo ?? 0),
  });
  return { payload, signature };
}

/** The Stripe settings a test server runs with against the fake (the webhook secret signs `signedEvent`s). */
export const STRIPE_TEST_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_nodekeep',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_nodekeep',
  STRIPE_WEBHOOK_SECRET: 'whsec_nodekeeptest',
};

/** The fake of Stripe and a test server pointed at it; `stop` closes both (in a test's afterAll). */
export async function startServerWithFakeStripe(
  env: Record<string, string> = {},
): Promise<{ stripe: FakeStripe; server: TestServer; stop: () => Promise<void> }> {
  const stripe = await startFakeStripe({ secretKey: STRIPE_TEST_KEYS.STRIPE_SECRET_KEY });
  try {
    const server = await startTestServer({ ...STRIPE_TEST_KEYS, STRIPE_API_BASE: stripe.url, ...env });
    return {
      stripe,
      server,
      stop: async () => {
        await stopTestServer(server);
        await stripe.close();
      },
    };
  } catch (err) {
    await stripe.close();
    throw err;
  }
}
