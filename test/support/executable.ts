import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The single executable's file name (scripts/package.mjs). */
export const EXECUTABLE_NAME = `nodekeep-${process.platform}-${process.arch}`;

const CACHE = path.resolve('node_modules/.cache/nodekeep-test-executable');
const KEEP = 4;
/** What goes into the executable: a change to any of these makes a new build. */
const INPUTS = ['src', 'catalog', 'dist/client', 'scripts/package.mjs', 'package-lock.json'];

function hashTree(hash: crypto.Hash, p: string): void {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isFile()) {
    hash.update(`${p}\0`).update(fs.readFileSync(p));
    return;
  }
  for (const e of fs.readdirSync(p).sort()) hashTree(hash, path.join(p, e));
}

/**
 * The executable of this checkout for `version` (NODEKEEP_VERSION; '' for package.json's),
 * built by scripts/package.mjs once per content of its inputs and kept in
 * node_modules/.cache: a build costs a minute on two cores, and the executable and systemd
 * tests, and every later run on an unchanged checkout, share it. Returns the cached file
 * (its `.sha256` beside it); callers copy it where they need it, never change it.
 */
export function builtExecutable(version = ''): string {
  const hash = crypto.createHash('sha256').update(`${process.version}\0${version}\0`);
  // The version the build prints names the commit: a new commit is a new build.
  hash.update(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }));
  for (const input of INPUTS) hashTree(hash, input);
  const dir = path.join(CACHE, hash.digest('hex').slice(0, 16));
  const file = path.join(dir, EXECUTABLE_NAME);
  if (fs.existsSync(`${file}.sha256`)) return file; // the checksum is copied last: the pair is whole
  // Test files of one run build at the same time (the executable, systemd and container
  // tests): scripts/package.mjs writes dist/ in place, so one build at a time, and the one
  // that waited finds the pair the other made. flock(1) waits without polling.
  fs.mkdirSync(CACHE, { recursive: true });
  execFileSync(
    'flock',
    [
      path.join(CACHE, 'build.lock'),
      'sh',
      '-euc',
      `[ -f "$1.sha256" ] && exit 0
"$2" scripts/package.mjs >/dev/null
mkdir -p "$(dirname "$1")"
cp "dist/$3" "$1" && chmod 755 "$1"
cp "dist/$3.sha256" "$1.sha256"`,
      'build',
      file,
      process.execPath,
      EXECUTABLE_NAME,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 480_000, env: { ...process.env, NODEKEEP_VERSION: version } },
  );
  // Each is about 100 MB: keep the newest few (an earlier release and the current one).
  const kept = fs
    .readdirSync(CACHE, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map(({ name: d }) => d)
    .map((d) => ({ d, t: fs.statSync(path.join(CACHE, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of kept.slice(KEEP)) fs.rmSync(path.join(CACHE, d), { recursive: true, force: true });
  return file;
}
