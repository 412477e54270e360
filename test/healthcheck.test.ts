import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/nodes/daemon-spec';
import { cliRun } from './support/cli';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

// `nodekeep healthcheck`, the container image's HEALTHCHECK (deploy/Containerfile): a GET of
// the running server's /readyz, exit 0 only on 200, the reason on stderr otherwise.

let s: TestServer | undefined;
let other: http.Server | undefined;
afterEach(async () => {
  await stopTestServer(s);
  s = undefined;
  if (other) await new Promise((r) => other!.close(r));
  other = undefined;
});

/** The probe as the container runs it: HOST and PORT of the server's own environment. */
const probe = (host: string, port: number, extra: string[] = []) =>
  cliRun(['healthcheck', ...extra], { HOST: host, PORT: String(port), DATA_DIR: '/nonexistent/nodekeep-data' });

describe('nodekeep healthcheck', () => {
  it("answers 0 when the server's /readyz is 200, reaching a server on every address over loopback", async () => {
    // The test's server listens on loopback (tests may not listen wider); a container's
    // HOST=0.0.0.0 is probed there.
    s = await startTestServer();
    const { port } = new URL(s.url);
    const r = await probe('0.0.0.0', Number(port));
    expect(r, r.err).toMatchObject({ code: 0 });
    expect(r.out).toBe(`http://127.0.0.1:${port}/readyz answers: ready`);
  });

  it('exits 1 naming what is not ready when /readyz answers 503', async () => {
    // A server whose readiness fails as ops/readiness.ts reports it.
    other = http.createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: false,
          failed: ['database'],
          checks: { database: { ok: false, error: 'the write probe took over 2000 ms' }, monitor: { ok: true } },
        }),
      );
    });
    await new Promise<void>((r) => other!.listen(0, '127.0.0.1', () => r()));
    const { port } = other.address() as AddressInfo;
    const r = await probe('127.0.0.1', port);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `error: http://127.0.0.1:${port}/readyz answers 503: not ready: database (the write probe took over 2000 ms)\n`,
    );
  });

  it('exits 1 when nothing listens, and 2 for a --url that is no http address', async () => {
    const port = await freePort();
    const r = await probe('127.0.0.1', port);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`error: http://127.0.0.1:${port}/readyz did not answer: ECONNREFUSED\n`);
    const bad = await probe('127.0.0.1', port, ['--url', 'ftp://x/readyz']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error: --url must be an http\(s\) address/);
  });
});
