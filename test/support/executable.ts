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
  execFileSync(process.execPath, ['scripts/package.mjs'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 240_000,
    env: { ...process.env, NODEKEEP_VERSION: version },
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(`dist/${EXECUTABLE_NAME}`, file);
  fs.chmodSync(file, 0o755);
  fs.copyFileSync(`dist/${EXECUTABLE_NAME}.sha256`, `${file}.sha256`);
  // Each is about 100 MB: keep the newest few (an earlier release and the current one).
  const kept = fs
    .readdirSync(CACHE)
    .map((d) => ({ d, t: fs.statSync(path.join(CACHE, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of kept.slice(KEEP)) fs.rmSync(path.join(CACHE, d), { recursive: true, force: true });
  return file;
}
