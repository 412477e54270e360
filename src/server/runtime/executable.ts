import fs from 'node:fs';
import path from 'node:path';
import sea from 'node:sea';
import { commandPrefix, operatorCommandLine } from '../../shared/operator-command';

/**
 * The single executable (`npm run package`, docs/self-hosting.md) carries its files as
 * Node single-executable assets: the client bundle, the coin catalog, the logos, the
 * daemon profiles and the native addons. They are written once per build to a private
 * cache folder in the data folder (the one place a hardened service may write), and
 * read from there like the files of a checkout.
 */
export const inExecutable: boolean = sea.isSea();

/** Written by scripts/package.mjs as the asset `index.json`. */
export type AssetIndex = {
  version: string;
  /** A hash of every asset: a new build unpacks into a new folder. */
  build: string;
  files: string[];
  natives: Record<NativeAddon, string>;
};
export type NativeAddon = 'sqlite' | 'argon2';

let index: AssetIndex | undefined;
export function assetIndex(): AssetIndex {
  index ??= JSON.parse(sea.getAsset('index.json', 'utf8')) as AssetIndex;
  return index;
}

/** The cache folder for this build: DATA_DIR/.cache/<build>. */
function cacheRoot(): string {
  return path.join(path.resolve(process.env.DATA_DIR || './data'), '.cache');
}

let unpacked: string | undefined;
/**
 * The folder holding this build's files, unpacked on first use. Each file is written
 * under a temporary name and renamed, and a marker written last, so two processes of
 * the same build (the server and a CLI command) can unpack at once and a crash halfway
 * is redone at the next start.
 */
export function unpackedDir(): string {
  if (unpacked) return unpacked;
  const { build, files } = assetIndex();
  const dir = path.join(cacheRoot(), build);
  const done = path.join(dir, '.complete');
  if (!fs.existsSync(done)) {
    for (const name of files) {
      const target = path.join(dir, name);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const part = `${target}.${process.pid}.part`;
      fs.writeFileSync(part, new Uint8Array(sea.getRawAsset(name) as ArrayBuffer), { mode: 0o600 });
      fs.renameSync(part, target);
    }
    fs.writeFileSync(done, `${build}\n`, { mode: 0o600 });
  }
  unpacked = dir;
  return dir;
}

/** Removes the folders earlier builds unpacked (called by the server once it holds the data folder). */
export function removeOtherBuilds(): string[] {
  if (!inExecutable) return [];
  const keep = assetIndex().build;
  const root = cacheRoot();
  const removed: string[] = [];
  for (const name of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (name === keep) continue;
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

const loaded = new Map<NativeAddon, unknown>();
/** A native addon shipped inside the executable, loaded from the cache folder. */
export function nativeAddon<T>(name: NativeAddon): T {
  let addon = loaded.get(name);
  if (!addon) {
    const module = { exports: {} as unknown };
    process.dlopen(module, path.join(unpackedDir(), assetIndex().natives[name]));
    addon = module.exports;
    loaded.set(name, addon);
  }
  return addon as T;
}

/** How this install's operator starts a command: `nodekeep` (the executable) or `npm run nodekeep --` (a checkout). */
export const cliPrefix: string = commandPrefix(inExecutable);

/** A command line as this install's operator types it: `nodekeep coins check dash`. */
export function operatorCommand(command: string): string {
  return operatorCommandLine(inExecutable, command);
}
