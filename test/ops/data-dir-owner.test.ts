import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { cliRun } from '../support/cli';
import { startTestServer, tempDataDir } from '../support/server';

// Root running `nodekeep restore` (or any command, or the server) on the service's data
// folder, having forgotten `runuser -u nodekeep --`: the files it wrote were root's, and
// the service could not start. It is refused before anything is written.

const dir = tempDataDir('nodekeep-owned-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a data folder that belongs to the service's user", () => {
  it.runIf(process.getuid?.() === 0)(
    'is refused to root, by the command line and the server, and nothing is written there',
    async () => {
      // nobody (65534) stands for the service's user.
      fs.chownSync(dir, 65534, 65534);
      const runs = [
        await cliRun(['users', 'list'], { DATA_DIR: dir }),
        await cliRun(['restore', '/nonexistent.tar.gz'], { DATA_DIR: dir }),
      ];
      expect(runs.map((r) => r.code)).toEqual([1, 1]);
      const name = fs
        .readFileSync('/etc/passwd', 'utf8')
        .split('\n')
        .find((l) => l.split(':')[2] === '65534')
        ?.split(':')[0];
      expect(runs[1].err).toBe(runs[0].err);
      expect(runs[0].err).toBe(
        `error: The data folder ${dir} belongs to user ${name}, and this is root: files written now would be root's, and Nodekeep running as ${name} could not open them. Run it as that user (runuser -u ${name} -- nodekeep …).\n`,
      );
      await expect(startTestServer({}, { dataDir: dir })).rejects.toThrow(/belongs to user .*, and this is root/);
      expect(fs.readdirSync(dir)).toEqual([]);
      // Its own user's folder (root's here) works as ever.
      fs.chownSync(dir, 0, 0);
      expect(await runCli(['users', 'list'], { DATA_DIR: dir }, { out: () => {} })).toBe(0);
      expect(fs.existsSync(path.join(dir, 'nodekeep.sqlite'))).toBe(true);
      // A folder mounted from elsewhere (another owner) whose database root made: root has
      // been running it there (a container), and goes on.
      fs.chownSync(dir, 65534, 65534);
      expect(await runCli(['users', 'list'], { DATA_DIR: dir }, { out: () => {} })).toBe(0);
    },
  );
});
