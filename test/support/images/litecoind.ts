import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const LITECOIND_IMAGE = 'localhost/nodekeep-test/litecoind:0.21';
export const LITECOIND_ENTRYPOINT = ['/usr/bin/litecoind'];
/** Debian's binary; the /usr/bin wrapper would write to ~/.litecoin. */
const BINARY = '/usr/lib/litecoin/litecoind';

/**
 * Lays out a minimal root filesystem for Debian's litecoind in `dir`: the binary, every
 * library `ldd` resolves, and the dynamic loader, at the paths the loader will look for.
 */
export function litecoindRootfs(dir: string): string {
  if (!fs.existsSync(BINARY)) throw new Error(`${BINARY} is missing; apt-get install litecoind`);
  const copy = (from: string, to: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    // copyFile follows symlinks: the image gets the library itself under the soname's path.
    fs.copyFileSync(from, path.join(dir, to));
  };
  copy(BINARY, '/usr/bin/litecoind');
  fs.chmodSync(path.join(dir, 'usr/bin/litecoind'), 0o755);
  // Lines are "libx.so => /lib/.../libx.so (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"; the vDSO has no file.
  for (const line of execFileSync('ldd', [BINARY], { encoding: 'utf8' }).split('\n')) {
    const file = /=>\s*(\/\S+)/.exec(line)?.[1] ?? /^\s*(\/\S+)/.exec(line)?.[1];
    if (file) copy(file, file);
  }
  for (const d of ['tmp', 'data', 'etc']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.chmodSync(path.join(dir, 'tmp'), 0o1777);
  return dir;
}
