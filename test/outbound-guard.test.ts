import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoRefusals, isLoopback, OutboundRefused, takeRefusals } from './support/outbound';

// The guard installed by test/support/network-guard.ts (every file's setup; see vitest.config.ts). The refused
// target is 192.0.2.1 (TEST-NET-1, RFC 5737): even if the guard failed, nothing there answers.
// Every test here takes the refusals it caused, so the setup file's afterEach passes.
afterEach(() => {
  expect(takeRefusals()).toEqual([]);
});

function read(s: net.Socket) {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    s.on('data', (d) => (text += d))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

/** What a socket reports first: an error, or a connection (which would be a guard failure). */
function outcome(socket: net.Socket): Promise<Error | 'connected'> {
  return new Promise((resolve) => {
    socket.once('error', (err) => resolve(err));
    socket.once('connect', () => resolve('connected'));
    socket.once('secureConnect', () => resolve('connected'));
  });
}

describe('outbound guard', () => {
  it('refuses a TCP connection to a non-loopback address before a handle exists', async () => {
    const socket = net.connect({ host: '192.0.2.1', port: 9 });
    // Synchronously, in the same tick as the call: recorded, and no OS socket was made
    // (a socket that is connecting has a handle and connecting === true).
    expect(takeRefusals().map((r) => r.what)).toEqual(['tcp 192.0.2.1:9']);
    expect(socket.connecting).toBe(false);
    expect((socket as unknown as { _handle: unknown })._handle ?? null).toBeNull();
    const result = await outcome(socket);
    expect(result).toBeInstanceOf(OutboundRefused);
    expect((result as OutboundRefused).code).toBe('ERR_TEST_OUTBOUND_REFUSED');
  });

  it('refuses every client form: port/host arguments, TLS, http.request and fetch', async () => {
    const plain = outcome(new net.Socket().connect(443, '192.0.2.1'));
    const secure = outcome(tls.connect({ host: '192.0.2.1', port: 443, servername: 'example.test' }));
    expect(takeRefusals().map((r) => r.what)).toEqual(['tcp 192.0.2.1:443', 'tcp 192.0.2.1:443']);
    expect(await plain).toBeInstanceOf(OutboundRefused);
    expect(await secure).toBeInstanceOf(OutboundRefused);

    const req = http.request({ host: '192.0.2.1', port: 80, path: '/' });
    const reqError = new Promise<Error>((resolve) => req.once('error', resolve));
    req.end();
    expect(await reqError).toBeInstanceOf(OutboundRefused);
    expect(takeRefusals().map((r) => r.what)).toEqual(['tcp 192.0.2.1:80']);

    const failed = await fetch('http://192.0.2.1:8080/x').then(
      () => null,
      (e: Error) => e,
    );
    expect((failed?.cause as Error | undefined)?.message ?? failed?.message).toMatch(/refused by the test guard/);
    expect(takeRefusals().map((r) => r.what)).toEqual(['tcp 192.0.2.1:8080']);
  });

  it('refuses name lookups of anything but localhost (a lookup is traffic to a resolver)', async () => {
    const cbErr = await new Promise<Error | null>((resolve) => dns.lookup('example.com', (err) => resolve(err)));
    expect(cbErr).toBeInstanceOf(OutboundRefused);
    await expect(dns.promises.lookup('example.com')).rejects.toBeInstanceOf(OutboundRefused);
    await expect(dns.promises.resolve4('example.com')).rejects.toBeInstanceOf(OutboundRefused);
    // A client asked for a name connects nowhere either.
    expect(await outcome(net.connect({ host: 'example.com', port: 80 }))).toBeInstanceOf(OutboundRefused);
    expect(takeRefusals().map((r) => r.what)).toEqual([
      'dns lookup example.com',
      'dns lookup example.com',
      'dns resolve4 example.com',
      'tcp example.com:80',
    ]);
  });

  it('fails the test even when the code under test swallows the error', async () => {
    // As a retry loop or a logged failure would: the error never reaches the test.
    await fetch('http://192.0.2.1:8025/').catch(() => {});
    // What the setup file's afterEach runs after every test.
    expect(() => assertNoRefusals('during this test')).toThrow(
      /1 unexpected outbound connection\(s\) during this test:\n- tcp 192\.0\.2\.1:8025\n/,
    );
    expect(() => assertNoRefusals('during this test')).not.toThrow(); // reported once
  });

  it('lets loopback (IPv4, localhost, IPv6 where the kernel has it) and unix sockets through', async () => {
    const server = http.createServer((_req, res) => res.end('hi'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const get = (host: string) =>
      new Promise<string>((resolve, reject) => {
        http
          .get({ host, port, path: '/', agent: false }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d)).on('end', () => resolve(text));
          })
          .on('error', reject);
      });
    try {
      expect(await get('127.0.0.1')).toBe('hi');
      expect(await get('localhost')).toBe('hi');
      expect(await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())).toBe('hi');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    const v6 = net.createServer((s) => s.end('v6'));
    const v6up = await new Promise<boolean>((resolve) =>
      v6.once('error', () => resolve(false)).listen(0, '::1', () => resolve(true)),
    );
    if (v6up) {
      expect(await read(net.connect({ host: '::1', port: (v6.address() as net.AddressInfo).port }))).toBe('v6');
      await new Promise((r) => v6.close(r));
    }
    const sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-guard-'));
    const sockPath = path.join(sockDir, 'guard.sock');
    const unix = net.createServer((s) => s.end('unix'));
    await new Promise<void>((r) => unix.listen(sockPath, r));
    try {
      expect(await read(net.connect(sockPath))).toBe('unix');
    } finally {
      await new Promise((r) => unix.close(r));
      fs.rmSync(sockDir, { recursive: true, force: true });
    }
    expect(takeRefusals()).toEqual([]);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.255.3.4', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['192.0.2.1', false],
    ['10.0.0.1', false],
    ['0.0.0.0', false],
    ['::', false],
    ['::ffff:192.0.2.1', false],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['example.com', false],
    ['fe80::1', false],
  ])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
