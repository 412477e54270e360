import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ipVersion } from '../../../shared/ip';
import { hostAddresses, isPublicAddress } from './public-address';

/** How long one delivery may take, connect to last byte: a slow receiver holds a job slot no longer. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** Only this much of a remote's answer is read (its error text for the owner). */
const MAX_ANSWER_BYTES = 4_096;

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/**
 * Addresses a customer's webhook may not reach from our network: anything but global
 * unicast (loopback, private, link-local with cloud metadata at 169.254.169.254, CGNAT,
 * unspecified, multicast, reserved), IPv6 forms judged by the IPv4 they embed (mapped,
 * compatible, NAT64, 6to4, Teredo), and this machine's own addresses. See public-address.ts.
 */
export function isInternalAddress(ip: string): boolean {
  return !isPublicAddress(ip);
}

export type OutboundPolicy = { allowInternal: boolean };

/**
 * Checks a URL a customer gave: http(s) only, no credentials, and (unless allowed) a host
 * that is not an internal address written out. Names are checked again when resolved at
 * delivery, so a name pointing inward is refused then too. Returns a message or null.
 */
export function urlProblem(raw: string, policy: OutboundPolicy): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'Enter a full URL starting with https:// or http://.';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'Only http:// and https:// URLs are allowed.';
  if (u.username || u.password) return 'The URL must not contain a user name or password.';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (
    !policy.allowInternal &&
    (host === 'localhost' || host.endsWith('.localhost') || (ipVersion(host) !== 0 && isInternalAddress(host)))
  ) {
    return 'The URL must point to a public address, not a local or private network.';
  }
  return null;
}

/**
 * A lookup that refuses internal addresses when the policy says so: checked on the
 * addresses the connection will use, so a name that resolves inward (or re-resolves
 * after the check, DNS rebinding) is refused. Answers in both forms Node asks for
 * (`all` is set when it tries several addresses, "happy eyeballs").
 */
function guardedLookup(policy: OutboundPolicy): net.LookupFunction {
  type Callback = (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void;
  const lookup = (hostname: string, options: dns.LookupOptions, callback: Callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      const none = options.all ? [] : '';
      if (err) return callback(err, none, 0);
      if (!addresses.length) return callback(new DeliveryError(`${hostname} has no address`), none, 0);
      if (!policy.allowInternal) {
        const own = hostAddresses(); // once per lookup, for every address it gave
        if (addresses.some((a) => !isPublicAddress(a.address, own)))
          return callback(new DeliveryError(`${hostname} resolves to a local or private address`), none, 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
  return lookup as net.LookupFunction;
}

export type Answer = { status: number; text: string };

/**
 * POSTs a JSON body: no redirects followed (a 3xx is a failure), a timeout over the whole
 * exchange, at most a few KB of the answer read. Rejects with a DeliveryError whose text
 * the owner may see; it never holds the URL's secret parts.
 */
export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<Answer> {
  const problem = urlProblem(rawUrl, policy);
  if (problem) return Promise.reject(new DeliveryError(problem));
  const u = new URL(rawUrl);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const options: https.RequestOptions = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'user-agent': 'Nodekeep-Alerts/1',
      ...headers,
    },
    // An address written out is checked by urlProblem; a name is checked when resolved.
    ...(ipVersion(host) !== 0 ? {} : { lookup: guardedLookup(policy) }),
    timeout: DELIVERY_TIMEOUT_MS,
    signal,
    // A connection per delivery: none kept open to a customer's host between alerts.
    agent: false,
  };
  const request = (cb: (res: http.IncomingMessage) => void) =>
    u.protocol === 'https:' ? https.request(u, options, cb) : http.request(u, options, cb);
  return new Promise<Answer>((resolve, reject) => {
    const req = request((res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(c);
        size += c.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES),
        }),
      );
      res.on('error', (e) => reject(new DeliveryError(e.message)));
    });
    const timer = setTimeout(
      () => req.destroy(new DeliveryError(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)),
      DELIVERY_TIMEOUT_MS,
    );
    req.on('timeout', () => req.destroy(new DeliveryError(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) =>
      reject(
        e instanceof DeliveryError
          ? e
          : new DeliveryError(`could not reach the receiver: ${(e as NodeJS.ErrnoException).code ?? e.message}`),
      ),
    );
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}
