import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

// Tests talk to loopback and unix sockets only. This module refuses anything else in
// the test process before a packet leaves: TCP and TLS (every client — http, fetch,
// nodemailer, ws, dockerode — ends in net.Socket#connect), UDP, and name lookups
// (a lookup of a public name is itself traffic to a resolver). It cannot see child
// processes (the built server in process.test.ts, coin daemons, Podman, Chromium):
// those are held to loopback by their own configuration.

/** One refused attempt: what was asked for and where in the test it came from. */
export type Refusal = { what: string; stack: string };

const refusals: Refusal[] = [];

/** The refusals since the last call, cleared. The guard's hooks fail a test that leaves any. */
export function takeRefusals(): Refusal[] {
  return refusals.splice(0);
}

/** Throws, naming each attempt and where it came from, if any was refused since the last check. */
export function assertNoRefusals(when: string) {
  const refused = takeRefusals();
  if (refused.length === 0) return;
  // The caller's frames, without the guard's own and Node's internals.
  const frames = (stack: string) =>
    stack
      .split('\n')
      .slice(1)
      .filter((l) => !/outbound\.ts|\(node:|at node:/.test(l))
      .slice(0, 6)
      .join('\n');
  const list = refused.map((r) => `- ${r.what}\n${frames(r.stack)}`).join('\n');
  throw new Error(`${refused.length} unexpected outbound connection(s) ${when}:\n${list}`);
}

export class OutboundRefused extends Error {
  readonly code = 'ERR_TEST_OUTBOUND_REFUSED';
  constructor(what: string) {
    super(`outbound connection refused by the test guard: ${what} (tests may reach only loopback and unix sockets)`);
  }
}

/** 127.0.0.0/8, ::1 (any spelling, bracketed or IPv4-mapped), and the name localhost. */
export function isLoopback(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === 'localhost' || h === 'localhost.') return true;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) h = mapped[1];
  if (net.isIPv4(h)) return h.split('.')[0] === '127';
  if (net.isIPv6(h)) {
    const groups = expandIPv6(h);
    return groups !== null && groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
  }
  return false;
}

function expandIPv6(h: string): number[] | null {
  const zone = h.indexOf('%');
  const addr = zone >= 0 ? h.slice(0, zone) : h;
  const [head, tail] = addr.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const a = parse(head);
  const b = parse(tail);
  if (addr.includes('::')) return [...a, ...Array(8 - a.length - b.length).fill(0), ...b];
  return a.length === 8 ? a : null;
}

function refuse(what: string): OutboundRefused {
  const err = new OutboundRefused(what);
  refusals.push({ what, stack: err.stack ?? '' });
  return err;
}

/** Where a `socket.connect(...)` call goes, in each of its argument forms. */
function connectTarget(args: unknown[]): { path: string } | { host: string; port: unknown } {
  // net.connect() hands over its normalized arguments as an array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first !== null && typeof first === 'object') {
    const o = first as { path?: string; host?: string; port?: unknown };
    if (o.path) return { path: o.path };
    return { host: o.host ?? 'localhost', port: o.port };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

let installed = false;

/**
 * Patches the process once; later calls do nothing. `local: false` (the unit and
 * procedure tiers) refuses loopback and unix sockets too: those tiers open no sockets.
 */
export function installOutboundGuard(opts: { local?: boolean } = {}) {
  if (installed) return;
  installed = true;
  const local = opts.local ?? true;
  const tierNote =
    '; the unit and procedure tiers open no sockets: a test that needs one belongs in the http tier (vitest.config.ts)';

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const target = connectTarget(args);
    const what = 'host' in target ? `tcp ${target.host}:${String(target.port)}` : `unix ${target.path}`;
    const allowed = local && ('path' in target || isLoopback(target.host));
    if (!allowed) {
      const err = refuse(local ? what : what + tierNote);
      // Reported the way Node reports a failed connect (an 'error' event), so callers
      // fail as they would on a refused connection; no handle was ever made.
      process.nextTick(() => this.destroy(err));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(this: dgram.Socket, ...args: unknown[]) {
    // send(msg, [offset, length,] port, address, cb): the address is the string after the port.
    const address = args.slice(1).find((a) => typeof a === 'string') as string | undefined;
    if (address !== undefined && !isLoopback(address)) throw refuse(`udp ${address}`);
    return (send as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.send;

  const lookup = dns.lookup;
  const guardedLookup = function (this: unknown, host: string, ...rest: unknown[]) {
    if (!isLoopback(String(host))) {
      const err = refuse(`dns lookup ${String(host)}`);
      const cb = rest.find((r) => typeof r === 'function') as ((e: Error) => void) | undefined;
      if (cb) process.nextTick(() => cb(err));
      return {};
    }
    return (lookup as (...a: unknown[]) => unknown).call(this, host, ...rest);
  };
  dns.lookup = guardedLookup as typeof dns.lookup;
  const promiseLookup = dns.promises.lookup;
  dns.promises.lookup = (async (host: string, ...rest: unknown[]) => {
    if (!isLoopback(String(host))) throw refuse(`dns lookup ${String(host)}`);
    return (promiseLookup as (...a: unknown[]) => unknown)(host, ...rest);
  }) as typeof dns.promises.lookup;

  // Resolver queries always go to a DNS server: none is expected.
  for (const name of [
    'resolve',
    'resolve4',
    'resolve6',
    'resolveAny',
    'resolveCname',
    'resolveMx',
    'resolveNs',
    'resolveTxt',
    'resolveSrv',
    'resolvePtr',
    'resolveNaptr',
    'resolveSoa',
    'resolveCaa',
    'reverse',
  ] as const) {
    const mod = dns as unknown as Record<string, unknown>;
    const prom = dns.promises as unknown as Record<string, unknown>;
    if (typeof mod[name] === 'function') {
      mod[name] = (host: string, ...rest: unknown[]) => {
        const err = refuse(`dns ${name} ${String(host)}`);
        const cb = rest.find((r) => typeof r === 'function') as ((e: Error) => void) | undefined;
        if (cb) process.nextTick(() => cb(err));
        else throw err;
      };
    }
    if (typeof prom[name] === 'function')
      prom[name] = async (host: string) => Promise.reject(refuse(`dns ${name} ${String(host)}`));
  }
}
