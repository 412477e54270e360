import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeliveryError, postJson } from './outbound';
import type { ChannelAdapter } from './types';

export const SIGNATURE_HEADER = 'Nodekeep-Signature';
export const DELIVERY_HEADER = 'Nodekeep-Delivery';
/** How old a signed timestamp a receiver should accept (our docs tell receivers this). */
export const SIGNATURE_TOLERANCE_S = 300;

/** A new signing secret, shown to the owner once. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<unix>.<body>">`: the timestamp is signed with the body, so neither can be swapped. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * What a receiver does (and our tests do): the signature must match the raw body and the
 * timestamp must be recent, so a captured delivery replayed later is refused.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  nowSeconds: number,
  toleranceS = SIGNATURE_TOLERANCE_S,
): 'ok' | 'bad signature' | 'stale' {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return 'bad signature';
  const want = Buffer.from(signatureHeader(secret, body, t).split('v1=')[1], 'hex');
  const got = Buffer.from(parts.v1, 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return 'bad signature';
  return Math.abs(nowSeconds - t) > toleranceS ? 'stale' : 'ok';
}

/** The generic webhook: a signed JSON POST; any 2xx is delivered. */
export const sendWebhook: ChannelAdapter = async (channel, alert, env) => {
  const body = JSON.stringify({
    kind: alert.kind,
    message: alert.message,
    link: alert.link,
    node: alert.node,
    time: alert.time,
  });
  const headers = {
    [SIGNATURE_HEADER]: signatureHeader(channel.secret, body, Math.floor(Date.now() / 1000)),
    [DELIVERY_HEADER]: String(alert.id),
  };
  const res = await postJson(channel.target, body, headers, env.policy, env.signal);
  if (res.status < 200 || res.status > 299)
    throw new DeliveryError(`the receiver answered HTTP ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''}`);
};
