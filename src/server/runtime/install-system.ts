import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every change `nodekeep install` makes to the machine goes through this, so a test runs
 * the same steps against a temporary root (`--root <dir>`) with the real tools.
 */
export interface InstallSystem {
  /** The folder the system's paths are under: `/` for this machine. */
  readonly root: string;
  read(file: string): Buffer | null;
  /** Mode and owner of a path, or null when it does not exist. */
  stat(file: string): { mode: number; uid: number; gid: number } | null;
  write(file: string, content: Buffer | string, mode: number, owner: Owner): void;
  mkdir(dir: string, mode: number, owner: Owner): void;
  /** Sets mode and owner of an existing path. */
  chmodOwn(file: string, mode: number, owner: Owner): void;
  /** The uid and gid of a user of the system, or null. */
  user(name: string): { uid: number; gid: number } | null;
  createSystemUser(name: string, home: string): void;
  /** `systemctl` on this system; with another root only what works offline (enable, is-enabled). */
  systemctl(args: string[]): { ok: boolean; out: string };
}

/** A user by name, or root. */
export type Owner = { user: string; group: string };

/** The machine itself (root `/`), or a root folder for an image or a test. */
export function hostSystem(root = '/'): InstallSystem {
  const at = (p: string) => path.join(root, p);
  const ids = (owner: Owner) => {
    const u = owner.user === 'root' ? { uid: 0, gid: 0 } : sys.user(owner.user);
    const g = owner.group === 'root' ? { gid: 0 } : sys.user(owner.group);
    if (!u || !g) throw new Error(`no user ${owner.user} on this system`);
    return { uid: u.uid, gid: g.gid };
  };
  const sys: InstallSystem = {
    root,
    read: (file) => (fs.existsSync(at(file)) ? fs.readFileSync(at(file)) : null),
    stat: (file) => {
      try {
        const s = fs.statSync(at(file));
        return { mode: s.mode & 0o7777, uid: s.uid, gid: s.gid };
      } catch {
        return null;
      }
    },
    write: (file, content, mode, owner) => {
      // A new file beside the old one, renamed over it: a cut-off install leaves either.
      const part = `${at(file)}.nodekeep-install`;
      // Missing only in a fresh root folder (/usr/local/bin, /etc/systemd/system).
      fs.mkdirSync(path.dirname(part), { recursive: true, mode: 0o755 });
      fs.writeFileSync(part, content, { mode });
      const { uid, gid } = ids(owner);
      fs.chownSync(part, uid, gid);
      fs.chmodSync(part, mode);
      fs.renameSync(part, at(file));
    },
    mkdir: (dir, mode, owner) => {
      fs.mkdirSync(at(dir), { recursive: true, mode });
      sys.chmodOwn(dir, mode, owner);
    },
    chmodOwn: (file, mode, owner) => {
      const { uid, gid } = ids(owner);
      fs.chownSync(at(file), uid, gid);
      fs.chmodSync(at(file), mode);
    },
    user: (name) => {
      const passwd = sys.read('/etc/passwd')?.toString('utf8') ?? '';
      const line = passwd.split('\n').find((l) => l.split(':')[0] === name);
      if (!line) return null;
      const [, , uid, gid] = line.split(':');
      return { uid: Number(uid), gid: Number(gid) };
    },
    createSystemUser: (name, home) => {
      execFileSync(
        'useradd',
        [
          ...(root === '/' ? [] : ['--prefix', root]),
          '--system',
          '--user-group',
          '--home-dir',
          home,
          '--no-create-home',
          '--shell',
          '/usr/sbin/nologin',
          name,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
    },
    systemctl: (args) => {
      try {
        const out = execFileSync('systemctl', [...(root === '/' ? [] : [`--root=${root}`]), ...args], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return { ok: true, out: out.trim() };
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() || e.message };
      }
    },
  };
  return sys;
}
