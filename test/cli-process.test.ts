import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './support/server';

// The built command line (dist/server/cli.js) in a process of its own, as an operator runs
// it: the commands whose domain reads another through a hook the composition root wires
// (coins counts the hosted nodes through nodes/) work there too, not only in-process.

const dataDir = tempDataDir('nodekeep-cli-process-');
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['dist/server/cli.js', ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the built command line', () => {
  it('lists the catalog with its hosted counts and delists a coin', async () => {
    const list = await cli(['catalog', 'list']);
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^dash\tDASH\t.*\t0$/m);
    const delist = await cli(['catalog', 'delist', 'dash']);
    expect(delist).toMatchObject({ code: 0, out: 'dash: delisted (0 hosted nodes keep running)\n' });
  });

  it('names its commands as a checkout runs them, in help and in a usage error', async () => {
    const help = await cli(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: npm run nodekeep -- <command>$/m);
    expect(help.out).not.toMatch(/README|docs\//);
    const wrong = await cli(['fleet', 'restart']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/^usage: npm run nodekeep -- fleet restart <node>$/m);
  });
});
