import { describe, expect, it } from 'vitest';
import { commandPrefix, operatorCommandLine } from '../../src/shared/operator-command';
import { cliPrefix, operatorCommand } from '../../src/server/runtime/executable';
import { configurationHint } from '../../src/server/serve';

describe('the operator command form', () => {
  it('is `nodekeep …` for the single executable and `npm run nodekeep -- …` for a checkout', () => {
    expect(commandPrefix(true)).toBe('nodekeep');
    expect(commandPrefix(false)).toBe('npm run nodekeep --');
    expect(operatorCommandLine(true, 'coins check dash')).toBe('nodekeep coins check dash');
    expect(operatorCommandLine(false, 'coins check dash')).toBe('npm run nodekeep -- coins check dash');
  });

  it("is the checkout's form in this process (tests run from a checkout)", () => {
    expect(cliPrefix).toBe('npm run nodekeep --');
    expect(operatorCommand('help')).toBe('npm run nodekeep -- help');
  });

  it('points a wrong setting to the README only in a checkout: the executable has none', () => {
    expect(configurationHint(false)).toBe('See the Configuration table in README.md.');
    expect(configurationHint(true)).toBe(
      'Settings are environment variables; the service reads them from /etc/nodekeep/nodekeep.env.',
    );
    expect(configurationHint(true)).not.toMatch(/README|docs\//);
  });
});
