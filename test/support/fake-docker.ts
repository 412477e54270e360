import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * A Docker Engine API on loopback that answers the one call the reachability check makes
 * (list containers) with no containers, over real HTTP. What a `tcp://127.0.0.1:port`
 * host looks like when Podman is not at hand; `calls` counts the requests it served.
 */
export async function startFakeDocker(): Promise<{ url: string; calls: string[]; close: () => Promise<void> }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && /^\/v1\.\d+\/containers\/json/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    // A container's log (raw text, as a TTY container sends it): its name and the tail asked for.
    const logs = /^\/v1\.\d+\/containers\/([\w.-]+)\/logs\?(.*)$/.exec(req.url ?? '');
    if (req.method === 'GET' && logs) {
      const tail = new URLSearchParams(logs[2]).get('tail');
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(`log of ${logs[1]}\ntail ${tail}\n`);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'not in this fake' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** CA, server and client PEMs for a TLS Docker API on 127.0.0.1, made with the openssl CLI. */
export function makeTlsMaterial(dir: string): {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
} {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=test-ca',
  );
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  fs.writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const who of ['server', 'client']) {
    run(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      `${who}.key`,
      '-out',
      `${who}.csr`,
      '-subj',
      `/CN=${who}`,
    );
    run(
      'x509',
      '-req',
      '-in',
      `${who}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${who}.pem`,
      '-days',
      '2',
      '-extfile',
      `${who}.ext`,
    );
  }
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
  return {
    ca: read('ca.pem'),
    serverCert: read('server.pem'),
    serverKey: read('server.key'),
    clientCert: read('client.pem'),
    clientKey: read('client.key'),
  };
}

/**
 * The same fake over TLS that demands a client certificate signed by `ca` (as dockerd
 * --tlsverify does). `port`: listen where an earlier one did (its certificates replaced).
 */
export async function startFakeTlsDocker(
  m: ReturnType<typeof makeTlsMaterial>,
  port = 0,
): Promise<{ url: string; calls: string[]; close: () => Promise<void> }> {
  const calls: string[] = [];
  const server = https.createServer(
    { ca: m.ca, cert: m.serverCert, key: m.serverKey, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      calls.push(`${req.method} ${req.url}`);
      if (req.method === 'GET' && /^\/v1\.\d+\/containers\/json/.test(req.url ?? ''))
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      res.writeHead(404).end('{}');
    },
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${listening}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
