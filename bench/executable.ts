import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machine, writeSection } from './report';

// The single executable (issue 12): its size, and its cold start to the first 200 of
// /healthz, against the checkout's bundle (`node dist/server/main.js`) started the same
// way in the same run. A first start unpacks the executable's files and creates the
// database; a later start on the same folder finds both.

const RUNS = 5;
const NAME = `nodekeep-${process.platform}-${process.arch}`;

/** Milliseconds from spawn to the first 200 of /healthz. */
async function coldStart(cmd: string, args: string[], dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(cmd, args, { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOME: dataDir }, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} exited ${child.exitCode}: ${out.slice(-500)}`);
      const url = /running at (http:\/\/[^\s]+)/.exec(out)?.[1];
      if (url) {
        const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
        if (ok) return performance.now() - started;
      }
      if (performance.now() - started > 60_000) throw new Error(`${cmd} did not answer in 60 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchExecutable(): Promise<void> {
  if (!fs.existsSync('dist/client/index.html') || !fs.existsSync('dist/server/main.js')) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  const t0 = performance.now();
  execFileSync(process.execPath, ['scripts/package.mjs'], { stdio: 'inherit' });
  const buildS = (performance.now() - t0) / 1000;
  const exe = path.resolve('dist', NAME);
  const size = (f: string) => fs.statSync(f).size;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

  const kinds = {
    executable: { cmd: exe, args: [] as string[] },
    bundle: { cmd: process.execPath, args: [path.resolve('dist/server/main.js')] },
  };
  const times: Record<string, { first: number[]; again: number[] }> = {};
  for (const [name, k] of Object.entries(kinds)) {
    times[name] = { first: [], again: [] };
    for (let i = 0; i < RUNS; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-bench-exe-'));
      try {
        times[name]!.first.push(await coldStart(k.cmd, k.args, dir));
        times[name]!.again.push(await coldStart(k.cmd, k.args, dir));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const row = (label: string, key: 'first' | 'again') => {
    const e = median(times.executable![key]);
    const b = median(times.bundle![key]);
    return `| ${label} | ${e.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(e / b).toFixed(2)}× |`;
  };
  const body = `## The single executable: size and cold start (issue 12)

${new Date().toISOString().slice(0, 10)}, ${machine()}.

\`npm run package\` built \`dist/${NAME}\` in ${buildS.toFixed(1)} s.

| part | size |
|---|---|
| the executable | ${mib(size(exe))} |
| of which Node itself (\`${process.execPath}\`) | ${mib(size(process.execPath))} |
| of which the injected blob (program, code cache, files) | ${mib(size('dist/sea/sea-prep.blob'))} |
| of which the program (one CommonJS bundle) | ${mib(size('dist/sea/nodekeep.cjs'))} |

Cold start: from spawn to the first 200 of \`/healthz\`, median of ${RUNS} runs each, a new data folder for each pair of starts; the executable against the checkout's bundle started by the same Node in the same run.

| start | executable | \`node dist/server/main.js\` | ratio |
|---|---|---|---|
${row('first (unpack files, create the database, seed the catalog)', 'first')}
${row('again on the same folder', 'again')}

Every run: executable first ${times.executable!.first.map((t) => t.toFixed(0)).join(', ')} ms, again ${times.executable!.again.map((t) => t.toFixed(0)).join(', ')} ms; bundle first ${times.bundle!.first.map((t) => t.toFixed(0)).join(', ')} ms, again ${times.bundle!.again.map((t) => t.toFixed(0)).join(', ')} ms.`;
  writeSection('executable', body);
  console.log(body);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExecutable();
