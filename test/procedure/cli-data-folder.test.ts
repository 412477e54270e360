import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRun } from '../support/cli';

// A command run from the wrong folder changes nothing and says so; the service's
// environment file tells the command line where the server's data is.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-clifolder-'));
const cwd = process.cwd();
afterAll(() => {
  process.chdir(cwd);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the data folder a command opens', () => {
  it('refuses to make ./data when DATA_DIR is not set, changing nothing', async () => {
    const here = fs.mkdtempSync(path.join(root, 'elsewhere-'));
    process.chdir(here);
    try {
      const r = await cliRun(['maintenance', 'on'], {});
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toBe(
        `error: no Nodekeep data in ${path.join(here, 'data')} (DATA_DIR is not set, so ./data was tried): set DATA_DIR to the server's data folder, or NODEKEEP_ENV_FILE to its environment file. Nothing was changed. To make a new data folder there, add --init.\n`,
      );
      expect(fs.readdirSync(here)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses a DATA_DIR that does not exist, and makes it with --init', async () => {
    const dir = path.join(root, 'new-data');
    const refused = await cliRun(['maintenance', 'on'], { DATA_DIR: dir });
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toMatch(
      /^error: DATA_DIR .*new-data does not exist: .*Nothing was changed\. To make a new data folder there, add --init\.\n$/,
    );
    expect(fs.existsSync(dir)).toBe(false);
    const made = await cliRun(['maintenance', 'on', '--init'], { DATA_DIR: dir });
    expect(made.code, made.err).toBe(0);
    expect(fs.existsSync(path.join(dir, 'nodekeep.sqlite'))).toBe(true);
  });

  it("opens the folder the service's environment file names (NODEKEEP_ENV_FILE), the command's own environment winning", async () => {
    const served = path.join(root, 'served');
    expect((await cliRun(['maintenance', 'off', '--init'], { DATA_DIR: served })).code).toBe(0);
    const envFile = path.join(root, 'nodekeep.env');
    fs.writeFileSync(envFile, `# the service's settings\nDATA_DIR=${served}\nPUBLIC_URL="https://nodes.example.com"\n`);
    // What it changed, and where: the folder was not named by the command's own environment.
    expect(await cliRun(['maintenance', 'on'], { NODEKEEP_ENV_FILE: envFile })).toEqual({
      code: 0,
      out: 'maintenance is now on',
      err: `(changed the data in ${served}: from ${envFile})\n`,
    });
    // A look changes nothing, and says nothing more.
    expect(await cliRun(['maintenance'], { NODEKEEP_ENV_FILE: envFile })).toEqual({
      code: 0,
      out: 'maintenance is on',
      err: '',
    });
    expect((await cliRun(['maintenance'], { DATA_DIR: served })).out).toBe('maintenance is on');
    // A DATA_DIR given to the command wins over the file's.
    const other = await cliRun(['maintenance'], { NODEKEEP_ENV_FILE: envFile, DATA_DIR: path.join(root, 'nowhere') });
    expect(other.code).toBe(1);
    const missing = await cliRun(['maintenance'], { NODEKEEP_ENV_FILE: path.join(root, 'none.env') });
    expect(missing).toMatchObject({ code: 1, out: '' });
    expect(missing.err).toMatch(/^error: the environment file .*none\.env cannot be read \(no such file\)\n$/);
  });
});
