import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { readTar, repackTar, type TarFileHeader } from '../kernel/tar';

/**
 * A chain snapshot an operator names for a profile (`bootstrap`): a node of that coin
 * starts from it instead of from the genesis block, after the archive proved to be the one
 * the operator pinned. Kept once per SHA-256 in the fleet's data folder, so the next node
 * of the coin does not download it again.
 */
export type Bootstrap = { url: string; sha256: string };

export class BootstrapError extends Error {}

/** How long a download may go without a byte before it is given up. */
const IDLE_MS = 60_000;

/** The URL without its query or credentials, for logs and messages (it may carry a token). */
export const shownUrl = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
};

/**
 * One entry's place in the data folder: a relative path that stays inside it, for a file
 * or a folder. Anything else (links, devices, `..`, absolute names) makes the whole
 * archive unusable: a snapshot is data, and one that tries more is not the operator's.
 */
export function snapshotPath(h: TarFileHeader): string {
  const name = h.name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (h.type !== 'file' && h.type !== 'directory')
    throw new BootstrapError(`the snapshot holds ${JSON.stringify(h.name)}, a ${h.type}: only files and folders`);
  const parts = name.split('/');
  if (!name || name.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0')))
    throw new BootstrapError(`the snapshot holds ${JSON.stringify(h.name)}, which points outside the data folder`);
  return name;
}

/** The archive's bytes as a tar: gunzipped when it starts with gzip's magic. */
function tarStream(file: string): Readable {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  const raw = fs.createReadStream(file);
  return head[0] === 0x1f && head[1] === 0x8b ? raw.pipe(zlib.createGunzip()) : raw;
}

async function download(boot: Bootstrap, to: string): Promise<void> {
  const controller = new AbortController();
  let idle = setTimeout(() => controller.abort(), IDLE_MS);
  const hash = crypto.createHash('sha256');
  try {
    const res = await fetch(boot.url, { signal: controller.signal, redirect: 'follow' });
    if (!res.ok || !res.body) throw new BootstrapError(`${shownUrl(boot.url)} answered HTTP ${res.status}`);
    const counting = new Transform({
      transform(chunk: Buffer, _enc, done) {
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(), IDLE_MS);
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as never), counting, fs.createWriteStream(to, { flags: 'wx' }));
  } catch (err) {
    if (err instanceof BootstrapError) throw err;
    throw new BootstrapError(
      controller.signal.aborted
        ? `${shownUrl(boot.url)} sent nothing for ${IDLE_MS / 1000} s`
        : `${shownUrl(boot.url)} could not be downloaded: ${(err as Error).message}`,
    );
  } finally {
    clearTimeout(idle);
  }
  const got = hash.digest('hex');
  if (got !== boot.sha256.toLowerCase())
    throw new BootstrapError(`${shownUrl(boot.url)} has SHA-256 ${got}, not the pinned ${boot.sha256.toLowerCase()}`);
}

// Keyed by the file being made (cache folder and hash): two servers in one process with
// their own cache folders never hand each other a path.
const pending = new Map<string, Promise<string>>();

/**
 * The snapshot on this machine, downloaded and checked once: its SHA-256 is the pinned one
 * and every entry is a file or folder inside the data folder. Concurrent nodes of one coin
 * share one download. Throws a BootstrapError saying what is wrong; nothing unchecked is
 * kept.
 */
export function fetchSnapshot(boot: Bootstrap, cacheDir: string): Promise<string> {
  const sha = boot.sha256.toLowerCase();
  const file = path.join(cacheDir, `${sha}.snapshot`);
  if (fs.existsSync(file)) return Promise.resolve(file);
  const inFlight = pending.get(file);
  if (inFlight) return inFlight;
  const work = (async () => {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const part = path.join(cacheDir, `${sha}.${crypto.randomBytes(4).toString('hex')}.part`);
    try {
      await download(boot, part);
      try {
        await readTar(tarStream(part), async (h, content) => {
          snapshotPath(h);
          content.resume();
        });
      } catch (err) {
        if (err instanceof BootstrapError) throw err;
        throw new BootstrapError(`${shownUrl(boot.url)} is not a tar or tar.gz archive: ${(err as Error).message}`);
      }
      fs.renameSync(part, file);
      return file;
    } finally {
      fs.rmSync(part, { force: true });
      pending.delete(file);
    }
  })();
  pending.set(file, work);
  return work;
}

/** Unpacks a checked snapshot into a node's data folder on this machine (owner-only modes). */
export async function extractSnapshot(file: string, dataDir: string): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  await readTar(tarStream(file), async (h, content) => {
    const to = path.join(dataDir, snapshotPath(h));
    if (h.type === 'directory') {
      fs.mkdirSync(to, { recursive: true, mode: 0o700 });
      content.resume();
      return;
    }
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
    await pipeline(content, fs.createWriteStream(to, { mode: h.mode & 0o100 ? 0o700 : 0o600 }));
  });
}

/** A checked snapshot as a plain tar of its files and folders, for the Docker API's archive upload. */
export function snapshotTar(file: string): Readable {
  return repackTar(tarStream(file), snapshotPath);
}
