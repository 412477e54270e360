import type { FleetAccess } from '../fleet/access';
import type { SecretBox } from '../secrets/box';
import { randomUUID } from 'node:crypto';
import { isIPv4 } from '../../shared/ip';
import type { Config } from '../kernel/config';
import type { DB } from '../db/open';
import type { JobRunner } from '../jobs/runner';
import type { ApiKey, Session, User } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { CallTurns } from '../guards/call-turns';
import type { RateLimiter } from '../guards/rate-limit';
import type { Logger } from '../kernel/log';
import type { MailDispatcher } from '../mail/dispatcher';

/** What the process holds once, shared by every request and connection. */
export type AppDeps = {
  db: DB;
  config: Config;
  log: Logger;
  limiter: RateLimiter;
  hub: EventHub;
  mail: Pick<MailDispatcher, 'kick'>;
  fleet: FleetAccess;
  /** Seals the secrets nodes run with (keystores, BLS and monero keys) before they are stored. */
  secrets: SecretBox;
  /** Who a token signs in, and whether maintenance is on (see CallerChecks). */
  callers: CallerChecks;
  /** The recurring jobs that keep failing in this process (the console overview shows them); `poke` runs a just-queued job at once. */
  jobs: Pick<JobRunner, 'failing' | 'poke'>;
};

/**
 * What the procedure builders (trpc.ts) ask about a caller. auth, apikeys and operator own
 * the answers and sit above rpc/, so the composition root hands these in (app.ts
 * `callerChecks`). They are asked only by procedures that need a caller, when they run.
 */
export type CallerChecks = {
  /** A token of an API key's shape (apikeys/); any other token is a session's. */
  isApiKey(token: string): boolean;
  /** The live session and its enabled user, or null. */
  session(ctx: Context, token: string): Promise<{ session: Session; user: User } | null>;
  /** The key and its enabled user, or null; refuses a key used from outside its allow list or too often. */
  apiKey(ctx: Context, token: string): Promise<{ key: ApiKey; user: User } | null>;
  /** Whether maintenance is on now. */
  maintenance(ctx: Context): Promise<boolean>;
};

/** Who is calling, from HTTP or a websocket connection alike. */
/**
 * `live`: a message on the live websocket, which serves subscriptions only.
 * Over HTTP: `turns` makes the payer's calls take turns (guards/call-turns.ts).
 */
export type RequestMeta = {
  ip: string;
  userAgent: string;
  requestId: string;
  live?: boolean;
  turns?: CallTurns;
  /** One object per HTTP request: what the call budget looked up for it is reused (auth/sessions.ts). */
  request?: object;
};

export type Context = AppDeps & { req: RequestMeta; token: string | null };

export function bearerToken(header: string | null | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}

/**
 * The client's address. Without trusted proxies it is the socket's peer. Behind
 * `trustedHops` proxies that each append the address they received from to
 * X-Forwarded-For, the client is the entry the outermost trusted proxy added: counted
 * from the right, past the addresses our own proxies added. Entries further left
 * were written by the client and prove nothing. A header shorter than the hop count
 * (a proxy not set up as configured) gives its leftmost entry, the farthest any
 * trusted proxy saw.
 */
export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string {
  const socket = normalizeIp(remoteAddress ?? '') || 'unknown';
  if (trustedHops <= 0 || !forwardedFor) return socket;
  const chain = forwardedFor
    .split(',')
    .map((s) => normalizeIp(s.trim()))
    .filter(Boolean);
  if (!chain.length) return socket;
  return chain[Math.max(0, chain.length - trustedHops)];
}

/** "::ffff:10.0.0.1" and "10.0.0.1" are one client. */
export function normalizeIp(ip: string): string {
  // Only the socket's own spelling: ipaddr.js would read "::10.0.0.1" as a mapped address too.
  const tail = ip.startsWith('::ffff:') ? ip.slice(7) : null;
  const v = tail !== null && isIPv4(tail) ? tail : ip;
  return v.length > 64 ? v.slice(0, 64) : v;
}

/** What a transport knows about a caller: HTTP, REST and websockets all give this. */
export type Caller = {
  remoteAddress: string | undefined;
  header(name: string): string | undefined;
  /** The bearer token; null reads it from the Authorization header. */
  token?: string | null;
  requestId?: string;
  /** The live websocket (subscriptions only). */
  live?: boolean;
  turns?: CallTurns;
  /** The HTTP request, as a key for lookups shared within it (RequestMeta.request). */
  request?: object;
};

/** The one context builder, for the tRPC HTTP handler, the REST adapter and websockets. */
export function createContext(deps: AppDeps, caller: Caller): Context {
  // Every key written out, not `...deps`: V8 gave each spread copy a hidden class of its own
  // (about 600 bytes a context), and a live connection keeps its context as long as it is
  // open (docs/benchmarks.md, live fan-out). The type makes sure no key of AppDeps is left out.
  const ctx: { [K in keyof AppDeps]-?: AppDeps[K] } & Pick<Context, 'req' | 'token'> = {
    db: deps.db,
    config: deps.config,
    log: deps.log,
    limiter: deps.limiter,
    hub: deps.hub,
    mail: deps.mail,
    fleet: deps.fleet,
    secrets: deps.secrets,
    callers: deps.callers,
    jobs: deps.jobs,
    req: {
      ip: clientIp(caller.remoteAddress, caller.header('x-forwarded-for'), deps.config.trustProxy),
      userAgent: caller.header('user-agent') ?? '',
      requestId: caller.requestId ?? randomUUID(),
      ...(caller.live ? { live: true } : {}),
      ...(caller.turns ? { turns: caller.turns } : {}),
      ...(caller.request ? { request: caller.request } : {}),
    },
    token: caller.token !== undefined ? caller.token || null : bearerToken(caller.header('authorization')),
  };
  return ctx;
}
