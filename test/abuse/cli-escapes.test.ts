import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByLogin, insertSession } from '../../src/server/auth/queries';
import { runCli } from '../../src/server/cli/main';
import { makeDeps, newUserInput, type Deps } from '../support/caller';

// Finding 10: text users typed reaches the operator's terminal without its controls.
let d: Deps;
beforeAll(async () => (d = await makeDeps()));
afterAll(() => d.close());

const HOSTILE = '\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.exe\nstate:     active';
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/;

async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => lines.push(l) });
  return { code, lines };
}

describe('operator CLI output', () => {
  it('shows terminal controls in user-supplied text as visible escapes, and no user value can fake a line', async () => {
    const u = newUserInput();
    await d.caller().auth.register({ ...u, referrer: HOSTILE.slice(0, 60) });
    const user = (await findUserByLogin(d.db, u.username))!;
    await insertSession(d.db, {
      user_id: user.id,
      token_hash: 'h-escapes',
      ip: '10.0.0.1',
      user_agent: `Mozilla ${HOSTILE}`,
      expires_at: Date.now() + 60_000,
    });

    const show = await cli('users', 'show', u.username);
    expect(show.code).toBe(0);
    for (const line of show.lines) expect(line).not.toMatch(RAW_CONTROL);
    const text = show.lines.join('\n');
    expect(text).toContain('\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202egnp.exe\\x0astate:');
    // One "state:" line only: the referrer's line break did not make a second one.
    expect(show.lines.filter((l) => l.startsWith('state:'))).toHaveLength(1);

    const list = await cli('users', 'list');
    for (const line of list.lines) expect(line).not.toMatch(RAW_CONTROL);
  });
});
