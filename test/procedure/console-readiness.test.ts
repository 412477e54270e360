import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { makeDeps, offlineFleet, rejection, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// The Catalog page's Readiness, in production (the simulator off): what customers are
// offered follows the profile's verification and the newest `coins check` per host. The
// check itself runs in the server's job runner (test/peers/coin-check.test.ts runs it for real);
// here its result rows are written as the job writes them.

let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
let hostId: number;
const OPERATOR_IP = '198.51.100.13';

beforeAll(async () => {
  d = await makeDeps();
  d.deps.fleet = { ...offlineFleet(), simulator: false };
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect(
    await runCli(['users', 'promote', operator.username], { DATA_DIR: d.deps.config.dataDir }, { out: () => {} }),
  ).toBe(0);
  ({ id: hostId } = await insertHost(d.db, {
    name: 'edge2',
    engine: 'docker',
    url: 'unix:///run/nodekeep-test-nothing.sock',
    ipv4: '203.0.113.11',
    ipv6: null,
    dedicated_slots: 10,
    cloud_slots: 50,
    state: 'active',
    last_error: null,
    credentials: null,
  }));
  // Measured by the host check: room for GoByte's chain and memory (its profile's resources).
  await d.db
    .updateTable('hosts')
    .set({ disk_total_bytes: 500 * 1024 ** 3, disk_free_bytes: 400 * 1024 ** 3, memory_total_bytes: 16 * 1024 ** 3 })
    .where('id', '=', hostId)
    .execute();
  // GoByte runs on its real daemon (verified from source in catalog/daemon-facts/gobyted.json).
  await d.db
    .updateTable('coins')
    .set({ details: sql`json_set(details, '$.daemon', 'gobyted')` })
    .where('id', '=', 'gbx')
    .execute();
});
afterAll(() => d?.close());

const readiness = () => d.caller(operator.token, OPERATOR_IP).console.readiness;
const rowOf = async (coin: string) => (await readiness().coins()).find((r) => r.coin === coin)!;
const deployInfo = async (coin: string) =>
  (await d.caller(customer.token, '198.51.100.99').deploy.get_deploy_info({ coin })).data;

describe('console readiness in production', () => {
  it('a coin on the simulator is not offered, and says so', async () => {
    expect(await rowOf('dash')).toMatchObject({
      profile: 'simulator-dash',
      offered: false,
      missing: expect.stringMatching(/runs on the coin-daemon simulator, which is off \(FLEET_SIMULATOR\)/),
    });
    expect(await deployInfo('dash')).toMatchObject({
      coming_soon: true,
      coming_soon_reason:
        'Dash nodes are coming soon: the servers that run them are being prepared. Please check back later.',
    });
  });

  it('a verified coin waits for its check; the operator queues one, logged, one at a time', async () => {
    expect(await rowOf('gbx')).toMatchObject({
      profile: 'gobyted',
      offered: false,
      missing: 'not checked yet: run `npm run nodekeep -- coins check gbx`',
      last_check: null,
    });
    const { check } = await readiness().check({ coin: 'gbx', host: 'edge2' });
    expect((await rowOf('gbx')).last_check).toMatchObject({ id: check, state: 'queued', host: 'edge2' });
    const jobs = await d.db.selectFrom('jobs').selectAll().where('name', '=', 'nodes.coin_check').execute();
    expect(jobs.map((j) => JSON.parse(j.payload).check_id)).toEqual([check]);
    const logged = await d.db.selectFrom('operator_log').selectAll().where('action', '=', 'coins check').execute();
    expect(logged).toHaveLength(1);
    expect(await rejection(readiness().check({ coin: 'gbx' }))).toMatchObject({
      code: 'CONFLICT',
      message: 'A check of GoByte is already under way.',
    });
    expect(await rejection(readiness().check({ coin: 'nope' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await rejection(readiness().check({ coin: 'gbx', host: 'nowhere' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await d.db.selectFrom('coin_checks').select('id').execute()).toHaveLength(1);
  });

  it('a failed check keeps it coming soon with its reason; a passed one offers it', async () => {
    const { id: failed } = await d.db
      .insertInto('coin_checks')
      .values({
        coin_id: 'gbx',
        profile_id: 'gobyted',
        host_id: hostId,
        state: 'failed',
        reason: 'image localhost/nodekeep/gobyted:0.16.2.2 is not on host edge2',
        requested_at: Date.now(),
        checked_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await rowOf('gbx')).toMatchObject({
      offered: false,
      missing: 'image localhost/nodekeep/gobyted:0.16.2.2 is not on host edge2',
      last_check: { id: failed, state: 'failed' },
    });
    await d.db
      .insertInto('coin_checks')
      .values({
        coin_id: 'gbx',
        profile_id: 'gobyted',
        host_id: hostId,
        state: 'passed',
        program: 'localhost/nodekeep/gobyted:0.16.2.2',
        steps: JSON.stringify([{ step: 'profile', ok: true, detail: 'verified' }]),
        requested_at: Date.now(),
        checked_at: Date.now(),
      })
      .execute();
    expect(await rowOf('gbx')).toMatchObject({ offered: true, missing: null });
    expect(await deployInfo('gbx')).toMatchObject({ coming_soon: false, coming_soon_reason: null });
    // The host drained: nowhere to put a node, so not offered.
    await d.db.updateTable('hosts').set({ state: 'draining' }).where('id', '=', hostId).execute();
    expect(await rowOf('gbx')).toMatchObject({ offered: false, missing: 'host edge2 cannot take a node now' });
    await d.db.updateTable('hosts').set({ state: 'active' }).where('id', '=', hostId).execute();
  });

  it('customers cannot read it (the console answers them as if it did not exist)', async () => {
    expect(await rejection(d.caller(customer.token, '198.51.100.98').console.readiness.coins())).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
