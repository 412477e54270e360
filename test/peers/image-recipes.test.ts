import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import { openDatabase } from '../../src/server/db/open';
import { dockerEngine } from '../../src/server/fleet/engines/docker';
import type { BinaryProfile } from '../../src/server/fleet/profiles';
import { loadConfig } from '../../src/server/kernel/config';
import { memoryLogger } from '../../src/server/kernel/log';
import { buildSpec } from '../../src/server/nodes/daemon-spec';
import { JobRunner } from '../../src/server/jobs/runner';
import { queuedJobPayloads } from '../../src/shared/jobs';
import { loadProfiles } from '../../src/server/fleet/profiles';
import { handleImageBuilds } from '../../src/server/nodes/image-build-job';
import { findImageBuild } from '../../src/server/nodes/image-build-queries';
import { requestImageBuild } from '../../src/server/nodes/images';
import { cliActor } from '../../src/server/operator/log';
import { openSecretBox } from '../../src/server/secrets/box';
import { cliRun } from '../support/cli';
import { writeFixtureFacts } from '../support/coin-ready';
import { startTestServer, stopTestServer } from '../support/server';
import { profiles, regtestSnapshot, rpc } from '../support/daemons';
import { podmanWithDebianRoot, TEST_ROOTFS, type Podman } from '../support/podman';

// Image recipes built for real, offline: the litecoind recipe variant made from Debian's
// package (test/fixtures/images/litecoind-debian) is built through `images build` on a
// private Podman, from a base imported from the Debian root CI makes, then run as a node
// through the docker engine with the config the platform writes, and asked over RPC. A
// production recipe without a pinned checksum fails its build with the reason; a request
// that names no recipe or no host is refused and changes nothing.

const ROOTFS = TEST_ROOTFS;
const BASE_IMAGE = 'localhost/nodekeep-test/debian:bookworm';
const PROFILE = 'litecoind-debian';
const IMAGE = 'localhost/nodekeep-test/litecoind-debian:0.21.2.1';
/** A production recipe whose checksum the operator must give. */
const SHA_RECIPE = 'xsnd';
const run = promisify(execFile);
// A P2P port someone else holds on the docker host's address (127.0.0.1 here).
const held = net.createServer();
await new Promise<void>((r) => held.listen(0, '127.0.0.1', () => r()));
const heldPort = (held.address() as net.AddressInfo).port;

const started = await podmanWithDebianRoot('var/lib/dpkg/status', 'image recipe tests');
const skip = 'skip' in started ? started.skip : null;
const pm = () => started as Podman;

/**
 * `apt-get download`s `pkg` and every package it depends on that the root at `rootfs` does
 * not have, into `dest`: what a build with no network needs to install it there.
 */
async function debsFor(pkg: string, rootfs: string, dest: string): Promise<string[]> {
  const { stdout } = await run('apt-cache', [
    'depends',
    '--recurse',
    '--no-recommends',
    '--no-suggests',
    '--no-conflicts',
    '--no-breaks',
    '--no-replaces',
    '--no-enhances',
    pkg,
  ]);
  // Package names start a line; virtual ones are <in angle brackets>.
  const names = [...new Set(stdout.split('\n').filter((l) => /^[a-z0-9][a-z0-9+.-]*$/.test(l)))];
  const missing: string[] = [];
  for (const name of names) {
    const status = await run('dpkg-query', [
      `--admindir=${path.join(rootfs, 'var/lib/dpkg')}`,
      '-W',
      '-f=${db:Status-Status}',
      name,
    ]).then(
      (r) => r.stdout,
      () => '',
    );
    if (status !== 'installed') missing.push(name);
  }
  fs.mkdirSync(dest, { recursive: true });
  await run('apt-get', ['download', '-q', ...missing], { cwd: dest });
  return missing;
}

let dir: string;
let env: Record<string, string>;
/** Rows the refusals must leave alone: builds recorded, operator log lines. */
async function counts() {
  const db = openDatabase(loadConfig(env).dbFile);
  try {
    const builds = await db.selectFrom('image_builds').selectAll().orderBy('id').execute();
    const log = await db.selectFrom('operator_log').selectAll().where('action', '=', 'images build').execute();
    return { builds, log };
  } finally {
    await db.destroy();
  }
}
const images = async () => (await pm().cli(['images', '--format', '{{.Repository}}:{{.Tag}}'])).trim().split('\n');

describe.skipIf(skip !== null)(`image recipes built on a real Podman${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(pm().dir, 'recipes-'));
    await pm().buildImage(BASE_IMAGE, ROOTFS);
    // The recipes this test's platform knows: the Debian-package variant with its .debs, and
    // one production recipe as it is.
    const recipes = path.join(dir, 'images');
    fs.cpSync('test/fixtures/images/litecoind-debian', path.join(recipes, PROFILE), { recursive: true });
    // Every production recipe as it is (their builds stop before any download here).
    fs.cpSync('catalog/images', recipes, { recursive: true });
    const fetched = await debsFor('litecoind', ROOTFS, path.join(recipes, PROFILE, 'debs'));
    expect(fetched).toContain('litecoind');
    // The catalog's profiles and the variant's: litecoind in regtest, under the test image's tag.
    const regtest = profiles['litecoind-regtest'] as BinaryProfile;
    fs.writeFileSync(
      path.join(dir, 'daemons.json'),
      JSON.stringify({
        version: 1,
        profiles: {
          ...profiles,
          [PROFILE]: { ...regtest, image: IMAGE, version: '0.21.2.1' },
          // For `coins check`: a version the image does not have, an image never built, a
          // P2P port held on the host's address.
          'ltc-badver': { ...regtest, image: IMAGE, version: '9.9.9' },
          'ltc-noimage': { ...regtest, image: 'localhost/nodekeep-test/never-built:1', version: '0.21.2.1' },
          'ltc-p2p': { ...regtest, image: IMAGE, version: '0.21.2.1', p2p_port: heldPort },
        },
      }),
    );
    // The server's data folder, made as its first start would (the CLI opens existing ones only).
    fs.mkdirSync(path.join(dir, 'data'));
    env = {
      DATA_DIR: path.join(dir, 'data'),
      DAEMON_PROFILES_FILE: path.join(dir, 'daemons.json'),
      DAEMON_FACTS_DIR: writeFixtureFacts(path.join(dir, 'facts'), [PROFILE, 'ltc-badver', 'ltc-noimage', 'ltc-p2p']),
      IMAGE_RECIPES_DIR: recipes,
    };
    const added = await cliRun(
      ['hosts', 'add', 'podman', '--engine', 'docker', '--url', pm().socketUrl, '--ipv4', '127.0.0.1'],
      env,
    );
    expect(added, added.err).toMatchObject({ code: 0 });
  }, 240_000);

  afterAll(async () => {
    held.close();
    await pm().stop();
  });

  it('builds the litecoind recipe with `images build`, and the image runs as a node that answers RPC', async () => {
    const built = await cliRun(['images', 'build', PROFILE, '--host', 'podman'], env);
    expect(built.code, `${built.out}\n${built.err}`).toBe(0);
    // The build's own output reached the terminal, then the verdict.
    expect(built.out).toMatch(/STEP \d+\/\d+: RUN dpkg -i/);
    expect(built.out.split('\n').at(-1)).toBe(`image ${IMAGE} built on host podman`);
    const { builds, log } = await counts();
    expect(builds.at(-1)).toMatchObject({ profile: PROFILE, host: 'podman', image: IMAGE, state: 'succeeded' });
    expect(JSON.parse(builds.at(-1)!.build_args)).toEqual({ VERSION: '0.21.2.1' });
    expect(JSON.parse(log.at(-1)!.detail)).toMatchObject({ profile: PROFILE, host: 'podman', image: IMAGE });

    // What the recipe promises: a non-root user, the data volume, a health check.
    const config = JSON.parse(await pm().cli(['image', 'inspect', '--format', '{{json .Config}}', IMAGE]));
    expect(config).toMatchObject({ User: 'nodekeep', Volumes: { '/data': {} } });
    expect((await pm().cli(['image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE])).trim()).toMatch(
      /litecoin-cli -conf=\/data\/litecoin.conf -datadir=\/data getblockcount/,
    );

    // A node on a docker host, as the platform makes it: the profile's arguments, its config file.
    const id = `ltc-${crypto.randomBytes(4).toString('hex')}`;
    const node = {
      id: 1,
      mn_id: id,
      user_id: 7,
      package: 'dedicated',
      server_ip: null,
      server_ip6: null,
      rpc_user: 'nodekeep',
      rpc_password: crypto.randomBytes(12).toString('hex'),
      output_text: '',
    } as unknown as Masternode;
    const { spec } = await buildSpec(
      node,
      { id: 'litecoin', label: 'Litecoin' } as CoinRecord,
      { ...(profiles['litecoind-regtest'] as BinaryProfile), image: IMAGE },
      { engine: 'docker' } as Host,
      dir,
    );
    expect(spec.program).toBe(IMAGE);
    const engine = dockerEngine({ url: pm().socketUrl, hostId: 'podman', log: memoryLogger() });
    try {
      await engine.create(spec);
      await engine.start(id);
      const target = {
        endpoint: await engine.rpcEndpoint(id),
        auth: { user: 'nodekeep', password: node.rpc_password! },
      };
      expect(
        await rpc(target, 'getblockchaininfo', [], v.looseObject({ chain: v.string(), blocks: v.number() })),
      ).toMatchObject({ chain: 'regtest', blocks: 0 });
      expect(await rpc(target, 'getnetworkinfo', [], v.looseObject({ subversion: v.string() }))).toMatchObject({
        subversion: expect.stringMatching(/LitecoinCore:0\.21\.2\.1/),
      });
      // The daemon runs as the recipe's user, and the recipe's health check passes.
      expect((await pm().cli(['exec', `nodekeep-${id}`, 'id', '-un'])).trim()).toBe('nodekeep');
      await pm().cli(['healthcheck', 'run', `nodekeep-${id}`]);
    } finally {
      await engine.destroy(id).catch(() => {});
      await engine.close();
    }
  }, 300_000);

  it("starts a docker node from a chain snapshot put into its volume, owned by the image's user", async () => {
    const snapshot = await regtestSnapshot(path.join(dir, 'snapmaker'), 12);
    const id = `ltcseed-${crypto.randomBytes(4).toString('hex')}`;
    const password = crypto.randomBytes(12).toString('hex');
    const node = { id: 2, mn_id: id, user_id: 7, package: 'dedicated', rpc_user: 'nodekeep', rpc_password: password };
    const { spec } = await buildSpec(
      node as unknown as Masternode,
      { id: 'litecoin', label: 'Litecoin' } as CoinRecord,
      { ...(profiles['litecoind-regtest'] as BinaryProfile), image: IMAGE },
      { engine: 'docker' } as Host,
      dir,
    );
    const engine = dockerEngine({ url: pm().socketUrl, hostId: 'podman', log: memoryLogger() });
    try {
      await engine.create({ ...spec, seed: snapshot });
      await engine.start(id);
      const target = { endpoint: await engine.rpcEndpoint(id), auth: { user: 'nodekeep', password } };
      expect(await rpc(target, 'getblockchaininfo', [], v.looseObject({ blocks: v.number() }))).toMatchObject({
        blocks: 12,
      });
      expect((await pm().cli(['exec', `nodekeep-${id}`, 'stat', '-c', '%U', '/data/regtest/chainstate'])).trim()).toBe(
        'nodekeep',
      );
    } finally {
      await engine.destroy(id).catch(() => {});
      await engine.close();
    }
  }, 300_000);

  it('`coins check` passes for the image built from the recipe, and names the missing piece for the others', async () => {
    // The coins, each on its profile, and the server that runs the checks (production: no simulator).
    const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
    const base = shipped.coins.find((c: { id: string }) => c.id === 'rtm');
    const coin = (id: string, daemon: string) => ({
      ...base,
      id,
      label: `Coin ${id}`,
      ticker: id.toUpperCase(),
      daemon,
    });
    const catalog = path.join(dir, 'check-coins.json');
    fs.writeFileSync(
      catalog,
      JSON.stringify({
        ...shipped,
        coins: [
          coin('ltcdeb', PROFILE),
          coin('ltcbad', 'ltc-badver'),
          coin('ltcnone', 'ltc-noimage'),
          coin('ltcp2p', 'ltc-p2p'),
        ],
      }),
    );
    expect((await cliRun(['catalog', 'import', catalog], env)).code).toBe(0);
    const server = await startTestServer({ ...env, FLEET_SIMULATOR: 'false' }, { dataDir: env.DATA_DIR });
    try {
      const ok = await cliRun(['coins', 'check', 'ltcdeb', '--host', 'podman'], env);
      expect(ok.code, `${ok.out}\n${ok.err}`).toBe(0);
      expect(ok.out).toMatch(new RegExp(`ok +program: ${IMAGE} is on host podman`));
      expect(ok.out).toMatch(/ok +calls: \d+ calls: getblockchaininfo answered, getnetworkinfo answered/);
      expect(ok.out.split('\n').at(-1)).toBe('ltcdeb: ready');
      const failures: Array<[string, string]> = [
        [
          'ltcnone',
          'image localhost/nodekeep-test/never-built:1 is not on host podman: build it with `npm run nodekeep -- images build ltc-noimage --host podman`',
        ],
        ['ltcbad', `${IMAGE} --version says "Litecoin Core version v0.21.2.1`],
        ['ltcp2p', `P2P port ${heldPort} is taken on 127.0.0.1 (host podman)`],
      ];
      for (const [id, reason] of failures) {
        const r = await cliRun(['coins', 'check', id, '--host', 'podman'], env);
        expect(r.code, id).toBe(1);
        expect(r.err, id).toContain(`error: ${id} is not ready: ${reason}`);
      }
      // No throwaway container is left on the host.
      expect((await pm().cli(['ps', '-a', '--format', '{{.Names}}'])).trim()).toBe('');
    } finally {
      await stopTestServer(server, { keepData: true });
    }
  }, 300_000);

  it("runs a build the console asked for as the server's job, keeping its state and output tail", async () => {
    const config = loadConfig(env);
    const db = openDatabase(config.dbFile);
    const log = memoryLogger();
    const deps = {
      db,
      box: openSecretBox(config.dataDir, config),
      log,
      profiles: loadProfiles(env.DAEMON_PROFILES_FILE),
      config,
    };
    const runner = new JobRunner(db, log, queuedJobPayloads, { pollMs: 50 });
    try {
      const id = await requestImageBuild(deps, cliActor(), { profile: PROFILE, host: 'podman' }, { queue: true });
      expect((await findImageBuild(db, id))?.state).toBe('queued');
      handleImageBuilds(runner, deps);
      runner.start();
      await expect.poll(async () => (await findImageBuild(db, id))?.state, { timeout: 120_000 }).toBe('succeeded');
      const row = (await findImageBuild(db, id))!;
      expect(row.error).toBeNull();
      expect(row.log_tail).toMatch(/Successfully tagged localhost\/nodekeep-test\/litecoind-debian:0\.21\.2\.1/);
      expect(row.log_tail.split('\n').length).toBeLessThanOrEqual(40);
      expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at!);
    } finally {
      await runner.stop(0);
      await db.destroy();
    }
  }, 150_000);

  it('fails the build of a recipe without a pinned checksum when SHA256 is not given, saying so', async () => {
    const r = await cliRun(
      ['images', 'build', SHA_RECIPE, '--host', 'podman', '--build-arg', `BASE=${BASE_IMAGE}`],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: image build failed: SHA256 is required: no citable checksum of the xsnd [\d.]+ archive/m,
    );
    expect(r.err).toMatch(/--build-arg SHA256=/);
    const last = (await counts()).builds.at(-1)!;
    expect(last).toMatchObject({ profile: SHA_RECIPE, state: 'failed' });
    expect(last.error).toMatch(/^SHA256 is required/);
    // Nothing tagged as the profile's image (the steps before the check stay as build cache).
    expect((await images()).filter((i) => i.includes(SHA_RECIPE))).toEqual([]);
  }, 120_000);

  it('parses every recipe without a pinned checksum, each stopping at its first step without SHA256', async () => {
    const needing = fs
      .readdirSync('catalog/images', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .filter((id) => /^ARG SHA256$/m.test(fs.readFileSync(path.join('catalog/images', id, 'Containerfile'), 'utf8')));
    expect(needing.length).toBeGreaterThan(20);
    for (const id of needing) {
      const r = await cliRun(['images', 'build', id, '--host', 'podman', '--build-arg', `BASE=${BASE_IMAGE}`], env);
      expect(r.code, id).toBe(1);
      expect(r.err, id).toMatch(
        new RegExp(`^error: image build failed: SHA256 is required: no citable checksum of the ${id} `, 'm'),
      );
    }
  }, 240_000);

  it('refuses an unknown profile, a profile without a recipe and an unknown host, changing nothing', async () => {
    const before = { ...(await counts()), images: await images() };
    const cases: Array<[string[], RegExp]> = [
      [['images', 'build', 'nosuchd', '--host', 'podman'], /^error: No daemon profile named nosuchd/],
      [
        ['images', 'build', 'litecoind-regtest', '--host', 'podman'],
        /^error: Profile litecoind-regtest has no image recipe/,
      ],
      [
        ['images', 'build', 'monerod-regtest', '--host', 'podman'],
        /^error: Profile monerod-regtest runs no container image/,
      ],
      [['images', 'build', PROFILE, '--host', 'nosuchhost'], /^error: No host named nosuchhost\./],
      [
        ['images', 'build', PROFILE, '--host', 'podman', '--build-arg', 'VERSION=1'],
        /^error: VERSION comes from the profile/,
      ],
      [['images', 'build', PROFILE, '--host', 'podman', '--build-arg', 'SHA256=xyz'], /^error: SHA256 must be 64/],
      [['images', 'build', PROFILE], /^error: --host names the Docker\/Podman host/],
    ];
    for (const [argv, message] of cases) {
      const r = await cliRun(argv, env);
      expect(r.code, argv.join(' ')).toBeGreaterThan(0);
      expect(r.err, argv.join(' ')).toMatch(message);
    }
    expect({ ...(await counts()), images: await images() }).toEqual(before);
  }, 60_000);
});
