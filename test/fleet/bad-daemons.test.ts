import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeBeacon } from '../../src/server/fleet/daemons/beacon';
import { observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { DaemonError } from '../../src/server/fleet/daemons/http';
import { observeMonero } from '../../src/server/fleet/daemons/monero';
import { addressIndexActivity } from '../../src/server/fleet/daemons/activity';
import { BURN_MESSAGES, checkBurn } from '../../src/server/fleet/daemons/burn';
import { governanceProposals, protxInfo, registerSubmit } from '../../src/server/fleet/daemons/dash';
import { nodeStatusFrom } from '../../src/server/fleet/status-map';

// A daemon that misbehaves on purpose: what it answers is chosen per test.
let reply: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, r) => r.end('{}');
const server = http.createServer((req, res) => reply(req, res));
let endpoint: { host: string; port: number };

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const json =
  (body: unknown, status = 200) =>
  (_q: http.IncomingMessage, r: http.ServerResponse) => {
    r.writeHead(status, { 'content-type': 'application/json' });
    r.end(JSON.stringify(body));
  };

async function failure(p: Promise<unknown>): Promise<DaemonError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DaemonError);
  return err as DaemonError;
}

const running = {
  state: 'running' as const,
  restarts: 0,
  startedAt: Date.now() - 3_600_000,
  exitCode: null,
  error: null,
};

describe('bad daemon replies are refused clearly and make the node unknown', () => {
  it.each([
    [
      'garbage',
      (_q: http.IncomingMessage, r: http.ServerResponse) => r.end('<html>502 Bad Gateway</html>'),
      'bad-reply',
      /not JSON/,
    ],
    [
      'wrong types',
      json({ result: { blocks: 'ten', headers: 10, verificationprogress: 1 }, error: null, id: 1 }),
      'bad-reply',
      /unexpected reply/,
    ],
    ['no envelope', json([1, 2, 3]), 'bad-reply', /not a JSON-RPC envelope/],
    [
      'an RPC error',
      json({ result: null, error: { code: -28, message: 'Loading block index...' }, id: 1 }),
      'rpc-error',
      /Loading block index/,
    ],
    ['a hang', () => {}, 'timeout', /no answer within 300 ms/],
  ] as const)('bitcoin family: %s', async (_name, handler, kind, message) => {
    reply = handler;
    const err = await failure(observeBitcoin({ endpoint, timeoutMs: 300 }, 'dash', false));
    expect(err.kind).toBe(kind);
    expect(err.message).toMatch(message);
    expect(
      nodeStatusFrom({ engine: running, obs: null, error: err, networkStatus: null, now: Date.now() }).status,
    ).toBe('unknown');
  });

  it('monero family: wrong types and negative heights', async () => {
    reply = json({ result: { status: 'OK', height: -5, target_height: 10 }, id: '0' });
    expect((await failure(observeMonero(endpoint, 300, false))).message).toMatch(/get_info: unexpected reply/);
  });

  it('beacon API: a 500 and a body of the wrong shape', async () => {
    reply = json({ message: 'internal' }, 500);
    expect((await failure(observeBeacon(endpoint, 300, null))).kind).toBe('rpc-error');
    reply = json({ data: { head_slot: 5 } });
    expect((await failure(observeBeacon(endpoint, 300, null))).message).toMatch(/unexpected reply/);
  });

  it('a refused connection is unreachable', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(
      (await failure(observeBitcoin({ endpoint: { host: '127.0.0.1', port }, timeoutMs: 300 }, 'none', false))).kind,
    ).toBe('unreachable');
  });

  it('a reply larger than 4 MiB is cut off', async () => {
    reply = (_q, r) => r.end('x'.repeat(5 * 1024 * 1024));
    expect((await failure(observeBitcoin({ endpoint, timeoutMs: 2000 }, 'none', false))).message).toMatch(/4 MiB/);
  });
});

describe("the platform's daemon calls refuse replies that do not have the real shape", () => {
  const rpc = () => ({ endpoint, timeoutMs: 2000 });
  const result = (value: unknown) => json({ result: value, error: null, id: 'nodekeep' });
  it('protx info, register_submit, gobject list, address index, burn check', async () => {
    reply = result({
      proTxHash: 'ab'.repeat(32),
      state: { registeredHeight: 5, lastPaidHeight: 'yesterday', PoSePenalty: 0, PoSeBanHeight: -1 },
    });
    expect((await failure(protxInfo(rpc(), 'ab'.repeat(32)))).message).toMatch(
      /^protx: unexpected reply .* at state\.lastPaidHeight/,
    );
    reply = result('not-a-hash');
    expect((await failure(registerSubmit(rpc(), '03000100', 'sig'))).kind).toBe('bad-reply');
    reply = result({
      ['cd'.repeat(32)]: {
        Hash: 'cd'.repeat(32),
        DataString: '{}',
        ObjectType: 1,
        CreationTime: 1,
        AbsoluteYesCount: 1,
        YesCount: '1',
        NoCount: 0,
        AbstainCount: 0,
        fCachedFunding: true,
        fCachedDelete: false,
      },
    });
    expect((await failure(governanceProposals(rpc()))).message).toMatch(/YesCount/);
    // A proposal whose JSON text is not a proposal is left out, not shown half-read.
    reply = result({
      ['cd'.repeat(32)]: {
        Hash: 'cd'.repeat(32),
        DataString: '{"name": 5}',
        ObjectType: 1,
        CreationTime: 1,
        AbsoluteYesCount: 1,
        YesCount: 1,
        NoCount: 0,
        AbstainCount: 0,
        fCachedFunding: true,
        fCachedDelete: false,
      },
    });
    expect(await governanceProposals(rpc())).toEqual([]);
    reply = result({ balance: 1.5, received: 2 });
    expect((await failure(addressIndexActivity(rpc(), 'Xaddr'))).kind).toBe('bad-reply');
    reply = result({ txid: 'ef'.repeat(32), vout: [{ value: '1000', n: 0, scriptPubKey: { type: 'nulldata' } }] });
    expect(await checkBurn(rpc(), 'ef'.repeat(32))).toEqual({
      ok: false,
      output_id: null,
      message: BURN_MESSAGES.unavailable,
    });
    reply = json(
      { result: null, error: { code: -5, message: 'No such mempool or blockchain transaction.' }, id: 'nodekeep' },
      500,
    );
    expect(await checkBurn(rpc(), 'ef'.repeat(32))).toEqual({
      ok: false,
      output_id: null,
      message: BURN_MESSAGES.notFound,
    });
  });
});
