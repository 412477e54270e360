import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/**
 * A private rootful Podman serving the Docker Engine API on a socket in a temp folder,
 * with its own configuration, storage, locks and events: it shares nothing with a
 * system Podman or with another test run but the kernel (and netavark's IP database).
 * Nothing can be pulled here; images are imported from local root filesystems.
 */
export type Podman = {
  /** `unix:///…/podman.sock`, for the docker engine. */
  socketUrl: string;
  socketPath: string;
  dir: string;
  /** Imports `rootfsDir` as image `name` (once per name and run). */
  buildImage(name: string, rootfsDir: string, opts?: { entrypoint?: string[] }): Promise<void>;
  /** Runs the podman CLI against this instance's storage. */
  cli(args: string[]): Promise<string>;
  /** Stops the service and removes every container, volume, mount and file it made. */
  stop(): Promise<void>;
};

const PREFIX = 'nk-podman-';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function configFiles(dir: string) {
  return {
    // runc: Debian's podman may default to crun, which is not installed. cgroupfs: no systemd
    // as PID 1 here. File locks: the default shared-memory lock table is one per machine, and a
    // fresh instance "refreshes" it (frees every lock), which would pull locks from under
    // a concurrent run or a system podman.
    'containers.conf': `[containers]
default_ulimits = ["nofile=20000:20000", "nproc=8192:8192"]
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
lock_type = "file"
tmp_dir = "${dir}/tmp"
image_copy_tmp_dir = "${dir}/tmp"
events_logger = "file"
events_logfile_path = "${dir}/events.log"

[network]
network_config_dir = "${dir}/networks"
`,
    'storage.conf': `[storage]
driver = "overlay"
graphroot = "${dir}/storage"
runroot = "${dir}/run"
`,
    // Short names never go to a registry (nothing could be pulled anyway): a typo fails fast.
    'registries.conf': `unqualified-search-registries = []
short-name-mode = "disabled"
`,
  };
}

function podmanEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: dir,
    CONTAINERS_CONF: path.join(dir, 'containers.conf'),
    CONTAINERS_STORAGE_CONF: path.join(dir, 'storage.conf'),
    CONTAINERS_REGISTRIES_CONF: path.join(dir, 'registries.conf'),
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path: '/_ping', timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

/** Mount points at or below `dir`, deepest first. */
function mountsUnder(dir: string): string[] {
  const points = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter(Boolean);
  return points.filter((p) => p === dir || p.startsWith(dir + '/')).sort((a, b) => b.length - a.length);
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return ''; // exited meanwhile
  }
}

/** Processes whose command line names our private folder: the service, conmon, cleanup helpers. Ours, by construction. */
function processesUsing(dir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
    .map(Number)
    .filter((pid) => commandLine(pid).includes(dir));
}

/**
 * Removes an instance's containers, volumes, images, storage and mounts, and its folder.
 * The service must be gone already (its own, or a dead run's).
 */
async function wipe(dir: string): Promise<void> {
  // Stops and removes containers, volumes, images and storage, unmounting its overlays.
  await run('podman', ['system', 'reset', '--force'], podmanEnv(dir)).catch((err) =>
    console.warn(`podman cleanup: ${(err as Error).message}`),
  );
  // Helpers that outlived the reset (a conmon whose container was gone, a service of a
  // killed run) are ours: their command lines name our private folder.
  for (const pid of processesUsing(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  for (const point of mountsUnder(dir)) spawnSync('umount', ['-l', point]);
  const left = mountsUnder(dir);
  if (left.length) throw new Error(`podman left mounts behind: ${left.join(', ')}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Cleans up after test runs that were killed before their afterAll (their owner pid is dead). */
async function reapStale(): Promise<void> {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue; // being set up right now, or not ours
    }
    // An empty or partial file is another run writing it this instant (several checkouts
    // may run at once): never reap on that, only on an owner that is known and dead.
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    console.warn(`removing podman test instance ${dir} left by a dead run (pid ${owner})`);
    // The dead run's service first; its containers go with the reset.
    for (const pid of processesUsing(dir).filter((p) => commandLine(p).includes('system\0service'))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    await wipe(dir).catch((err) => console.warn(`could not remove ${dir}: ${(err as Error).message}`));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Why this machine cannot run the tests, or null when it looks able to. */
function precheck(): string | null {
  if (process.platform !== 'linux') return 'podman tests need Linux';
  if (process.getuid?.() !== 0) return 'podman tests run rootful podman and need root';
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error)
    return `podman is not installed (${version.error.message}); apt-get install podman runc catatonit netavark iptables`;
  if (spawnSync('runc', ['--version']).error) return 'runc is not installed; apt-get install runc';
  // The engine creates containers with Init: true, which podman serves with catatonit.
  if (!fs.existsSync('/usr/libexec/podman/catatonit')) return 'catatonit is not installed; apt-get install catatonit';
  // netavark publishes ports through iptables.
  if (spawnSync('iptables', ['--version']).error) return 'iptables is not installed; apt-get install iptables';
  if (!fs.readFileSync('/proc/filesystems', 'utf8').includes('overlay')) return 'the kernel has no overlay filesystem';
  return null;
}

/**
 * Starts the service, or says why it cannot. With NODEKEEP_REQUIRE_PODMAN=1 (CI on a
 * machine that has it) a missing or broken Podman fails instead of skipping.
 */
export async function startPodman(): Promise<Podman | { skip: string }> {
  const reason = precheck();
  if (reason) return skipOrThrow(reason);
  await reapStale();
  // Short path: a unix socket path must stay under 108 bytes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  // Written whole under a temporary name, then renamed: a concurrent reaper never reads half of it.
  fs.writeFileSync(path.join(dir, 'owner.pid.tmp'), String(process.pid));
  fs.renameSync(path.join(dir, 'owner.pid.tmp'), path.join(dir, 'owner.pid'));
  for (const [name, text] of Object.entries(configFiles(dir))) fs.writeFileSync(path.join(dir, name), text);
  const env = podmanEnv(dir);
  const socketPath = path.join(dir, 'podman.sock');
  const serviceLog = fs.openSync(path.join(dir, 'service.log'), 'a');
  let service: ChildProcess | null = null;
  const built = new Map<string, Promise<void>>();

  const cli = (args: string[]) => run('podman', args, env);

  async function stop(): Promise<void> {
    if (service) {
      service.kill('SIGTERM');
      const done = await Promise.race([exited(service).then(() => true), sleep(5_000).then(() => false)]);
      if (!done) {
        service.kill('SIGKILL');
        await exited(service);
      }
      service = null;
    }
    await wipe(dir);
  }

  try {
    // Fails here, with a readable message, when storage or the runtime cannot initialize.
    await cli(['info', '--format', '{{.Store.GraphDriverName}} {{.Host.CgroupsVersion}}']);
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socketPath}`], {
      env,
      stdio: ['ignore', serviceLog, serviceLog],
    });
    const started = Date.now();
    while (!(await ping(socketPath))) {
      if (service.exitCode !== null || service.signalCode !== null)
        throw new Error(
          `podman system service exited: ${fs.readFileSync(path.join(dir, 'service.log'), 'utf8').trim().slice(-500)}`,
        );
      if (Date.now() - started > 20_000) throw new Error('podman system service did not answer /_ping within 20 s');
      await sleep(50);
    }
  } catch (err) {
    await stop().catch(() => {});
    return skipOrThrow(`podman cannot start here: ${(err as Error).message}`);
  } finally {
    fs.closeSync(serviceLog);
  }

  return {
    socketUrl: `unix://${socketPath}`,
    socketPath,
    dir,
    cli,
    stop,
    buildImage(name, rootfsDir, opts = {}) {
      let job = built.get(name);
      if (!job) {
        job = (async () => {
          const tarball = path.join(dir, `image-${built.size}.tar`);
          await run('tar', ['-C', rootfsDir, '-cf', tarball, '.'], env);
          const changes = opts.entrypoint ? ['--change', `ENTRYPOINT ${JSON.stringify(opts.entrypoint)}`] : [];
          await cli(['import', '--quiet', ...changes, tarball, name]);
          fs.rmSync(tarball, { force: true });
        })();
        built.set(name, job);
        job.catch(() => built.delete(name));
      }
      return job;
    },
  };
}

/** The Debian root the image and machine tests build from (scripts/debian-rootfs.sh; .ci/run makes it). */
export const TEST_ROOTFS = process.env.NODEKEEP_TEST_ROOTFS ?? '/var/cache/nodekeep-test-rootfs/debian-systemd';

/**
 * A private Podman for a test that builds from the Debian root, when the root has
 * `marker` (a file its test needs: dpkg's status for an image, systemd for a machine);
 * without it a reason to skip, or in CI (NODEKEEP_REQUIRE_PODMAN=1) the failure. The
 * skip is said once, on the console, naming `what` was not tested.
 */
export async function podmanWithDebianRoot(marker: string, what: string): Promise<Podman | { skip: string }> {
  const started = fs.existsSync(path.join(TEST_ROOTFS, marker))
    ? await startPodman()
    : skipOrThrow(`no Debian root at ${TEST_ROOTFS}: scripts/debian-rootfs.sh ${TEST_ROOTFS} makes it (.ci/run does)`);
  if ('skip' in started) console.warn(`${what} skipped: ${started.skip}`);
  return started;
}

function skipOrThrow(reason: string): { skip: string } {
  if (process.env.NODEKEEP_REQUIRE_PODMAN === '1') throw new Error(reason);
  return { skip: reason };
}
