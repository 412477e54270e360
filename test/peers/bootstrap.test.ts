import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarBuffer } from '../../src/server/kernel/tar';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { cliRun } from '../support/cli';
import { writeLitecoindCatalog } from '../support/coin-ready';
import { DAEMON_BUDGET_MS, haveBinary, pidsMatching, regtestSnapshot, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// A profile's chain snapshot (`bootstrap`): a new litecoind node starts from a regtest chain
// an operator serves, once its SHA-256 is the pinned one; a snapshot that is not (another
// checksum, an entry outside the data folder) is never used and the node syncs from nothing.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const dataDir = tempDataDir('nodekeep-bootstrap-');
const HEIGHT = 120;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const served = new Map<string, Buffer>();
const downloads = new Map<string, number>();
const web = http.createServer((req, res) => {
  const at = new URL(req.url ?? '/', 'http://x').pathname;
  const body = served.get(at);
  downloads.set(at, (downloads.get(at) ?? 0) + 1);
  if (!body) return res.writeHead(404).end();
  res.writeHead(200, { 'content-length': body.length }).end(body);
});
await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(web.address() as net.AddressInfo).port}`;

let s: TestServer;
let owner: FreshUser;
const row = (mn: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', mn).executeTakeFirstOrThrow();

async function deploy(coinId: string): Promise<string> {
  const n = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, facts: s.deps.fleet.facts, log: s.deps.log, simulator: true },
    { userId: owner.id, coinId, plan: 'dedicated' },
  );
  await s.deps.fleet.reconcile();
  return n.mn_id;
}
/** The node's height as the monitor saw it, once it saw one. */
const seenHeight = async (mn: string) => {
  const seen = await waitFor(
    async () => {
      const { blocks } = await row(mn);
      return blocks === null ? null : { blocks };
    },
    DAEMON_BUDGET_MS * 2,
    `${mn} observed`,
  );
  return seen.blocks;
};

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  const snapshot = fs.readFileSync(await regtestSnapshot(path.join(dataDir, 'maker'), HEIGHT));
  served.set('/ltc.tar.gz', snapshot);
  // A well-formed archive with one entry that would land beside the node's data folder.
  const evil = await tarBuffer([
    { name: 'regtest/ok.txt', mode: 0o644, content: 'fine' },
    { name: '../escaped.txt', mode: 0o644, content: 'outside' },
  ]);
  served.set('/evil.tar', evil);
  const { profilesFile, catalogFile } = writeLitecoindCatalog(dataDir, {
    profiles: {
      'ltc-boot': { bootstrap: { url: `${base}/ltc.tar.gz?token=secret`, sha256: sha256(snapshot) } },
      'ltc-badsum': { bootstrap: { url: `${base}/ltc.tar.gz`, sha256: '0'.repeat(64) } },
      'ltc-evil': { bootstrap: { url: `${base}/evil.tar`, sha256: sha256(evil) } },
      'ltc-gone': { bootstrap: { url: `${base}/nothing-here.tar.gz`, sha256: sha256(Buffer.from('gone')) } },
    },
    base: 'pivx',
    coins: [
      { id: 'bootok', daemon: 'ltc-boot' },
      { id: 'bootbad', daemon: 'ltc-badsum' },
      { id: 'bootevil', daemon: 'ltc-evil' },
      { id: 'bootgone', daemon: 'ltc-gone' },
    ],
  });
  const env = {
    FLEET_SIMULATOR: 'true',
    DAEMON_PROFILES_FILE: profilesFile,
    MONITOR_NODE_SECONDS: '0.5',
    MONITOR_NETWORK_SECONDS: '0.5',
  };
  const imported = await cliRun(['catalog', 'import', catalogFile], { DATA_DIR: dataDir, ...env });
  expect(imported.code, imported.err).toBe(0);
  s = await startTestServer(env, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'boot' });
}, 180_000);
afterAll(async () => {
  web.close();
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

describe.skipIf(!haveBinary(LITECOIND))('a chain snapshot named by the profile', () => {
  it('starts a new node from the checked snapshot, downloaded once for all nodes of the coin', async () => {
    const [a, b] = [await deploy('bootok'), await deploy('bootok')];
    expect(await seenHeight(a)).toBe(HEIGHT);
    expect(await seenHeight(b)).toBe(HEIGHT);
    expect(downloads.get('/ltc.tar.gz')).toBe(1);
    // The token in its URL is never written to the log.
    expect(s.logLines.join('\n')).not.toMatch(/token=secret/);
  }, 300_000);

  it('never uses a snapshot that is not the pinned one, or holds an entry outside the data folder: the node syncs from nothing', async () => {
    const bad = await deploy('bootbad');
    const evil = await deploy('bootevil');
    const gone = await deploy('bootgone');
    for (const mn of [bad, evil, gone]) expect(await seenHeight(mn)).toBe(0);
    const log = s.logLines.join('\n');
    expect(log).toMatch(
      new RegExp(
        `chain snapshot not used.*${bad}.*has SHA-256 ${sha256(served.get('/ltc.tar.gz')!)}, not the pinned 0{64}`,
      ),
    );
    expect(log).toMatch(/chain snapshot not used.*the snapshot holds \\?"\.\.\/escaped\.txt\\?", which points outside/);
    expect(log).toMatch(/chain snapshot not used.*nothing-here\.tar\.gz answered HTTP 404/);
    // Nothing of the refused archive reached a node's folder or its neighbours.
    const nodes = path.join(dataDir, 'fleet', 'data');
    expect(fs.existsSync(path.join(nodes, 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(nodes, evil, 'regtest', 'ok.txt'))).toBe(false);
    // Nothing unchecked is kept: only the good snapshot is in the cache.
    expect(fs.readdirSync(path.join(dataDir, 'fleet', 'snapshots'))).toEqual([
      `${sha256(served.get('/ltc.tar.gz')!)}.snapshot`,
    ]);
  }, 300_000);
});
