import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { appRouter } from '../../src/server/router';
import { CONSOLE_NEEDS_2FA } from '../../src/shared/console';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// Every procedure under `console.`, read from the router itself: a procedure added later
// is walked too, so none can be forgotten behind the operator check.
const consolePaths = Object.keys(appRouter._def.procedures).filter((p) => p.startsWith('console.'));

let d: Deps;
let customer: FreshUser;
let operatorNo2fa: FreshUser;
let operator: FreshUser;
let operatorKey: string;
let customerKey: string;

async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
}

beforeAll(async () => {
  d = await makeDeps();
  customer = await freshUser(d.deps, { prefix: 'cust' });
  operatorNo2fa = await freshUser(d.deps, { prefix: 'op-no2fa' });
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  expect((await cli('users', 'promote', operatorNo2fa.username)).code).toBe(0);
  expect((await cli('users', 'promote', operator.username)).code).toBe(0);
  operatorKey = (await d.caller(operator.token).apikeys.create_api_key({ name: 'ops script' })).key;
  customerKey = (await d.caller(customer.token).apikeys.create_api_key({ name: 'script' })).key;
});
afterAll(() => d?.close());

/** Calls a procedure by its dotted path with no input (the operator check runs before input parsing). */
function callPath(token: string | null, path: string): Promise<unknown> {
  const target = path.split('.').reduce<any>((node, key) => node[key], d.caller(token));
  return target(undefined);
}

async function refusal(token: string | null, path: string): Promise<TRPCError> {
  const err = await callPath(token, path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `${path} answered instead of refusing`).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

describe('operator console access', () => {
  it('has console procedures to walk', () => {
    expect(consolePaths).toEqual(
      expect.arrayContaining([
        'console.access',
        'console.log',
        'console.log_filters',
        'console.overview',
        'console.settings.get',
        'console.settings.set_maintenance',
        'console.settings.set_banner',
        'console.settings.set_signup',
      ]),
    );
  });

  it("answers NOT_FOUND to guests, customers, API keys (an operator's own too) and operators without 2FA, on every console procedure", async () => {
    const callers: Array<[string, () => string | null]> = [
      ['guest', () => null],
      ['customer', () => customer.token],
      ["customer's API key", () => customerKey],
      ["operator's API key", () => operatorKey],
      ['operator without 2FA', () => operatorNo2fa.token],
      ['a made-up token', () => 'not-a-session-token'],
    ];
    for (const path of consolePaths) {
      for (const [who, token] of callers) {
        const err = await refusal(token(), path);
        expect(err.code, `${path} as ${who}`).toBe('NOT_FOUND');
        if (who === 'operator without 2FA') expect(err.message).toBe(CONSOLE_NEEDS_2FA);
        else expect(err.message, `${path} as ${who}`).toBe('Not found.');
      }
    }
    // Nothing the refused calls could have changed did change.
    const log = await d.db
      .selectFrom('operator_log')
      .select('action')
      .where('action', 'not in', ['users promote'])
      .execute();
    expect(log).toEqual([]);
  });

  it('opens for an operator with 2FA on, also during maintenance, and closes again on demotion', async () => {
    expect(await d.caller(operator.token).console.access()).toEqual({
      username: operator.username,
      maintenance: false,
      // A checkout (the tests' own): its texts say `npm run nodekeep -- …`.
      executable: false,
    });
    expect((await cli('maintenance', 'on')).code).toBe(0);
    try {
      expect(await d.caller(operator.token).console.access()).toMatchObject({ maintenance: true });
      expect(await d.caller(operator.token).console.settings.get()).toMatchObject({ maintenance: true });
    } finally {
      expect((await cli('maintenance', 'off')).code).toBe(0);
    }
    const demoted = await freshUser(d.deps, { prefix: 'op-demoted', tfa: true });
    expect((await cli('users', 'promote', demoted.username)).code).toBe(0);
    await d.caller(demoted.token).console.access();
    expect(await cli('users', 'demote', demoted.username)).toEqual({
      code: 0,
      out: `${demoted.username} is a customer now; the console refuses them from their next call`,
    });
    expect((await refusal(demoted.token, 'console.access')).code).toBe('NOT_FOUND');
  });
});

describe('users promote and demote', () => {
  it('sets the role, says so, refuses unknown names and logs who did it from the CLI', async () => {
    const u = await freshUser(d.deps, { prefix: 'promo', login: false });
    const promoted = await cli('users', 'promote', u.email);
    expect(promoted.code).toBe(0);
    expect(promoted.out).toMatch(/is an operator now; the console opens once they turn on two-factor authentication/);
    expect((await d.db.selectFrom('users').select('role').where('id', '=', u.id).executeTakeFirstOrThrow()).role).toBe(
      'operator',
    );
    expect((await cli('users', 'promote', u.username)).out).toBe(`${u.username} is already an operator`);
    expect((await cli('users', 'show', u.username)).out).toMatch(/role:\s+operator/);
    expect((await cli('users', 'demote', u.username)).code).toBe(0);
    expect((await d.db.selectFrom('users').select('role').where('id', '=', u.id).executeTakeFirstOrThrow()).role).toBe(
      'customer',
    );
    expect((await cli('users', 'demote', 'nobody-by-this-name')).code).toBe(1); // a refusal, not a usage mistake
    expect((await cli('users', 'promote')).code).toBe(2);

    const lines = await d.db
      .selectFrom('operator_log')
      .selectAll()
      .where('action', 'in', ['users promote', 'users demote'])
      .where('detail', 'like', `%"user_id":${u.id},%`)
      .orderBy('id')
      .execute();
    expect(lines.map((l) => l.action)).toEqual(['users promote', 'users demote']);
    for (const l of lines) {
      expect(l).toMatchObject({ actor: 'cli', actor_user_id: null, address: 'cli' });
      expect(l.actor_name.length).toBeGreaterThan(0);
      expect(Math.abs(l.at - Date.now())).toBeLessThan(60_000);
    }
  });
});
