import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { machine, writeSection } from './report';

// The single executable (issue 12): its size, and its cold start to the first 200 of
// /healthz, against the checkout's bundle (`node dist/server/main.js`) started the same
// way in the same run. A first start unpacks the executable's files and creates the
// database; a later start on the same folder finds both.

const RUNS = 5;
const NAME = `nodekeep-${process.platform}-${process.arch}`;

/**
 * Milliseconds from spawn to the first 200 of /healthz, and from SIGTERM to the exit with
 * a live tab (a websocket on /live) and an idle keep-alive connection open, as a restart
 * under systemd meets them.
 */
async function startAndStop(cmd: string, args: string[], dataDir: string): Promise<{ start: number; stop: number }> {
  const started = performance.now();
  const child = spawn(cmd, args, {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOME: dataDir },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  try {
    let start = 0;
    let url = '';
    while (!start) {
      if (child.exitCode !== null) throw new Error(`${cmd} exited ${child.exitCode}: ${out.slice(-500)}`);
      url = /running at (http:\/\/[^\s]+)/.exec(out)?.[1] ?? '';
      if (
        url &&
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        start = performance.now() - started;
      else if (performance.now() - started > 60_000) throw new Error(`${cmd} did not answer in 60 s`);
      else await new Promise((r) => setTimeout(r, 5));
    }
    const ws = new WebSocket(`${url.replace('http', 'ws')}/live`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const stopping = performance.now();
    child.kill('SIGTERM');
    await exited;
    ws.terminate();
    return { start, stop: performance.now() - stopping };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchExecutable(): Promise<void> {
  if (!fs.existsSync('dist/client/index.html') || !fs.existsSync('dist/server/main.js'))
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
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
  const times: Record<string, { first: number[]; again: number[]; stop: number[] }> = {};
  for (const [name, k] of Object.entries(kinds)) {
    times[name] = { first: [], again: [], stop: [] };
    for (let i = 0; i < RUNS; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-bench-exe-'));
      try {
        for (const key of ['first', 'again'] as const) {
          const { start, stop } = await startAndStop(k.cmd, k.args, dir);
          times[name]![key].push(start);
          times[name]!.stop.push(stop);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const row = (label: string, key: 'first' | 'again' | 'stop') => {
    const e = median(times.executable![key]);
    const b = median(times.bundle![key]);
    return `| ${label} | ${e.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(e / b).toFixed(2)}× |`;
  };
  const body = `## The single executable: size, cold start and stop (issue 12)

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

Stop: from SIGTERM to the exit, with a live tab's websocket and an idle keep-alive connection open (the tab is told to reconnect and closed with 1012), median of ${RUNS * 2} stops each. The promise is 10 s; what the median takes is the stop's own work.

| stop | executable | \`node dist/server/main.js\` | ratio |
|---|---|---|---|
${row('SIGTERM to exit', 'stop')}

Every run: executable first ${times.executable!.first.map((t) => t.toFixed(0)).join(', ')} ms, again ${times.executable!.again.map((t) => t.toFixed(0)).join(', ')} ms; bundle first ${times.bundle!.first.map((t) => t.toFixed(0)).join(', ')} ms, again ${times.bundle!.again.map((t) => t.toFixed(0)).join(', ')} ms.`;
  writeSection('executable', body);
  console.log(body);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExecutable();
