import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// The Catalog page's image recipes: which profiles have one, and a build asked for from
// the console is recorded, logged and queued as a job (the build itself runs in the
// server's job runner: test/peers/image-recipes.test.ts builds for real).

let d: Deps;
let operator: FreshUser;
const OPERATOR_IP = '198.51.100.12';

beforeAll(async () => {
  d = await makeDeps();
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  expect(
    await runCli(['users', 'promote', operator.username], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} }),
  ).toBe(0);
  await insertHost(d.db, {
    name: 'edge1',
    engine: 'docker',
    url: 'unix:///run/nodekeep-test-nothing.sock',
    ipv4: '203.0.113.10',
    ipv6: null,
    dedicated_slots: 10,
    cloud_slots: 50,
    state: 'active',
    last_error: null,
    credentials: null,
  });
});
afterAll(() => d?.close());

const images = () => d.caller(operator.token, OPERATOR_IP).console.images;
const jobs = () => d.db.selectFrom('jobs').selectAll().where('name', '=', 'images.build').execute();

describe('console image recipes', () => {
  it('lists every localhost/nodekeep profile with its recipe, and which need a checksum', async () => {
    const list = await images().recipes();
    const ids = list.map((r) => r.profile);
    expect(ids).toContain('pivxd');
    expect(ids).not.toContain('dashd'); // its project publishes the image
    expect(ids).not.toContain('playa3ull-node'); // no public daemon
    for (const r of list) expect(r.image).toMatch(/^localhost\/nodekeep\//);
    expect(list.find((r) => r.profile === 'pivxd')).toMatchObject({
      coins: ['pivx'],
      needs_sha256: false,
      last_build: null,
    });
    expect(list.find((r) => r.profile === 'xsnd')).toMatchObject({ needs_sha256: true });
  });

  it('records, logs and queues a build; the recipes list shows it queued', async () => {
    const sha = 'ab'.repeat(32);
    const { build } = await images().build({ profile: 'xsnd', host: 'edge1', sha256: sha.toUpperCase() });
    const row = await d.db.selectFrom('image_builds').selectAll().where('id', '=', build).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      profile: 'xsnd',
      host: 'edge1',
      image: 'localhost/nodekeep/xsnd:1.0.28',
      state: 'queued',
    });
    expect(JSON.parse(row.build_args)).toEqual({ SHA256: sha, VERSION: '1.0.28' });
    expect(await jobs()).toEqual([
      expect.objectContaining({
        key: `images.build:${build}`,
        state: 'queued',
        payload: expect.stringContaining(`"build_id":${build}`),
      }),
    ]);
    const line = (await d.caller(operator.token, OPERATOR_IP).console.log({ per_page: 1 })).lines[0];
    expect(line).toMatchObject({ action: 'images build', actor: 'operator', address: OPERATOR_IP });
    expect((await images().recipes()).find((r) => r.profile === 'xsnd')?.last_build).toMatchObject({
      id: build,
      state: 'queued',
      host: 'edge1',
    });
  });

  it('refuses an unknown profile, a profile without a recipe, an unknown host, and writes nothing', async () => {
    const before = {
      builds: await d.db.selectFrom('image_builds').selectAll().execute(),
      jobs: await jobs(),
    };
    expect(await rejection(images().build({ profile: 'nosuchd', host: 'edge1' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^No daemon profile named nosuchd/),
    });
    expect(await rejection(images().build({ profile: 'dashd', host: 'edge1' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(
        /^Profile dashd has no image recipe .*its image dashpay\/dashd:[\d.]+ comes from its project\.$/,
      ),
    });
    expect(await rejection(images().build({ profile: 'pivxd', host: 'nosuch' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'No host named nosuch.',
    });
    expect(await rejection(images().build({ profile: 'pivxd', host: 'edge1', sha256: 'xyz' }))).toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect({ builds: await d.db.selectFrom('image_builds').selectAll().execute(), jobs: await jobs() }).toEqual(before);
  });
});
