import { ipVersion } from '../../shared/ip';

/**
 * How the platform reaches a Docker/Podman host. A Docker API is root on its host, so
 * a remote one is reached only over TLS with a client certificate (`https://` or
 * `tcp+tls://`, with CA, certificate and key) or over SSH (`ssh://user@host[:port]`).
 * Plain `tcp://` (or `http://`) is unauthenticated and unencrypted: allowed only on a
 * loopback address, where nothing crosses a network.
 */
export type HostTls = { ca: string; cert: string; key: string };
export type HostCredentials = { tls?: HostTls; sshKey?: string };

export type HostConnection =
  | { kind: 'socket'; socketPath: string }
  | { kind: 'plain'; host: string; port: number }
  | { kind: 'tls'; host: string; port: number; tls: HostTls }
  | { kind: 'ssh'; host: string; port: number; username: string; sshKey?: string };

/** A host address the rule refuses; the message says what to do instead. */
export class HostUrlError extends Error {}

/** 127.0.0.0/8, ::1 and "localhost": traffic that never leaves this machine. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (ipVersion(h) === 4) return h.split('.')[0] === '127';
  if (ipVersion(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----/;

function parse(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new HostUrlError(
      `"${url}" is not a URL: use unix:///path/to/docker.sock, https://host:2376 (TLS with a client certificate), ssh://user@host, or tcp://127.0.0.1:port`,
    );
  }
}

/** Checks a host's URL and credentials against the rule above; returns how to connect. */
export function hostConnection(url: string, creds: HostCredentials = {}): HostConnection {
  const u = parse(url.trim());
  const port = (fallback: number) => {
    const p = u.port ? Number(u.port) : fallback;
    if (!Number.isInteger(p) || p < 1 || p > 65535) throw new HostUrlError(`the port in ${url} is not a port number`);
    return p;
  };
  if (u.protocol === 'unix:') {
    if (!u.pathname || u.pathname === '/' || u.host)
      throw new HostUrlError('a socket URL is unix:///path/to/docker.sock');
    return { kind: 'socket', socketPath: u.pathname };
  }
  if (!u.hostname) throw new HostUrlError(`${url} names no host`);
  // The URL is shown in the console and written to the log: no secret may ride in it.
  if (u.password)
    throw new HostUrlError('a host URL carries no password: give an SSH key or TLS client certificate instead');
  if (u.protocol === 'tcp:' || u.protocol === 'http:') {
    if (!isLoopback(u.hostname)) {
      throw new HostUrlError(
        `plain ${u.protocol}// is refused for ${u.hostname}: a Docker API is root on its host, so a remote host is reached only over TLS with a client certificate (https://${u.hostname}:2376 with CA, certificate and key) or over SSH (ssh://user@${u.hostname})`,
      );
    }
    return { kind: 'plain', host: u.hostname, port: port(2375) };
  }
  if (u.protocol === 'https:' || u.protocol === 'tcp+tls:') {
    const tls = creds.tls;
    if (!tls || !tls.ca.trim() || !tls.cert.trim() || !tls.key.trim())
      throw new HostUrlError(
        `${url} needs the CA certificate, the client certificate and the client key (PEM) of a TLS-protected Docker API`,
      );
    for (const [what, pem] of [
      ['CA certificate', tls.ca],
      ['client certificate', tls.cert],
      ['client key', tls.key],
    ] as const) {
      if (!PEM.test(pem)) throw new HostUrlError(`the ${what} is not PEM text (-----BEGIN ...-----)`);
    }
    return { kind: 'tls', host: u.hostname, port: port(2376), tls };
  }
  if (u.protocol === 'ssh:') {
    if (!u.username) throw new HostUrlError('an SSH URL names its user: ssh://user@host[:port]');
    if (creds.sshKey !== undefined && !PEM.test(creds.sshKey))
      throw new HostUrlError('the SSH private key is not PEM/OpenSSH text (-----BEGIN ...-----)');
    return {
      kind: 'ssh',
      host: u.hostname,
      port: port(22),
      username: decodeURIComponent(u.username),
      sshKey: creds.sshKey,
    };
  }
  throw new HostUrlError(
    `${u.protocol}// is not a Docker host URL: use unix:///path/to/docker.sock, https://host:2376 with a client certificate, ssh://user@host, or tcp:// on a loopback address`,
  );
}
