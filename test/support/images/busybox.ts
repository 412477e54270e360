import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const BUSYBOX_IMAGE = 'localhost/nodekeep-test/busybox-daemon:1';
export const BUSYBOX_ENTRYPOINT = ['/bin/nk-daemon'];

/**
 * A stand-in coin daemon: serves its data folder over HTTP (as a daemon answers RPC),
 * counts its boots in that folder (so a test sees the volume survive restarts), and
 * with a third argument crashes with exit code 3 after that many seconds.
 * With a fourth argument it also serves on that port (a masternode's P2P port beside its RPC).
 * Usage: nk-daemon <data-dir> <port> [crash-after-seconds] [second-port]
 */
const DAEMON = `#!/bin/sh
data="$1"; port="$2"; crash="$3"; second="$4"
echo "boot" >> "$data/boots"
echo "nk-daemon: boot $(wc -l < "$data/boots") on port $port"
echo "hello from $(hostname)" > "$data/index.html"
echo "nk-daemon: stderr works" >&2
if [ -n "$second" ]; then httpd -p "$second" -h "$data"; fi
if [ -n "$crash" ]; then
  httpd -p "$port" -h "$data"
  sleep "$crash"
  echo "nk-daemon: crashing"
  exit 3
fi
echo "nk-daemon: serving $data"
exec httpd -f -p "$port" -h "$data"
`;

/** Lays out the image's root filesystem in `dir`: busybox-static, its applets and the daemon script. */
export function busyboxRootfs(dir: string): string {
  const busybox = ['/bin/busybox', '/usr/bin/busybox'].find((p) => fs.existsSync(p));
  if (!busybox) throw new Error('busybox is not installed; apt-get install busybox-static');
  // The image has no libc: a dynamically linked busybox would fail with a bare "no such file".
  const ldd = spawnSync('ldd', [busybox], { encoding: 'utf8' });
  if (!`${ldd.stdout}${ldd.stderr}`.includes('not a dynamic'))
    throw new Error(`${busybox} is not static; apt-get install busybox-static`);
  for (const d of ['bin', 'tmp', 'data', 'etc']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.copyFileSync(busybox, path.join(dir, 'bin/busybox'));
  fs.chmodSync(path.join(dir, 'bin/busybox'), 0o755);
  for (const applet of execFileSync(busybox, ['--list'], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
    if (applet !== 'busybox') fs.symlinkSync('busybox', path.join(dir, 'bin', applet));
  }
  fs.writeFileSync(path.join(dir, 'bin/nk-daemon'), DAEMON, { mode: 0o755 });
  return dir;
}
