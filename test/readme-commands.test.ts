import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';

// The README's command list is what an operator reads first: every command and option
// the command line's help names is there too.

describe("README's operator commands", () => {
  it('name every command and option of `help`', async () => {
    const lines: string[] = [];
    expect(await runCli(['help'], {}, { out: (l) => lines.push(l) })).toBe(0);
    const readme = fs.readFileSync('README.md', 'utf8');
    const block = readme.slice(
      readme.indexOf('npm run nodekeep -- help'),
      readme.indexOf('```', readme.indexOf('npm run nodekeep -- help')),
    );
    const usages = lines.filter((l) => l.startsWith('  ')).map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(usages.length).toBeGreaterThan(30);
    for (const usage of usages) {
      // The command's words (up to its first argument), then each --option it takes.
      const name = usage.split(/ [<[(|-]/)[0];
      expect(block, `${name} missing from README`).toContain(name);
      for (const option of usage.match(/--[a-z][a-z0-9-]*/g) ?? []) {
        const line = block
          .split('\n')
          .filter((l) => l.includes(name))
          .join('\n');
        expect(line, `${name} ${option} missing from README`).toContain(option);
      }
    }
  });
});
