import fs from 'node:fs';
import path from 'node:path';
import { plainFileName, type DaemonFile } from '../engine';

/**
 * Each file through a temporary name created with its mode, then renamed: a reader sees
 * the old file or the new one, and a secret is never readable by others for a moment
 * (writeFileSync's mode applies only to a file it creates).
 */
export function placeFiles(dir: string, files: DaemonFile[]) {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of files) {
    if (!plainFileName(f.name)) throw new Error(`${JSON.stringify(f.name)} is not a plain file name`);
    const tmp = path.join(dir, `.${f.name}.tmp`);
    fs.rmSync(tmp, { force: true });
    fs.writeFileSync(tmp, f.content, { mode: f.mode, flag: 'wx' });
    fs.renameSync(tmp, path.join(dir, f.name));
  }
}
