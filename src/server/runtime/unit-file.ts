import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sea from 'node:sea';
import { inExecutable } from './executable';

/** The unit's asset name inside the executable, and its path in a checkout (scripts/package.mjs). */
export const UNIT_ASSET = 'deploy/nodekeep.service';

/**
 * The systemd unit `nodekeep install` writes. The executable carries it, so an operator
 * with only the file installs the same unit the repository tests; a checkout reads it
 * from deploy/ (found upward from this module, which esbuild may have moved into dist/).
 */
export function serviceUnitText(): string {
  if (inExecutable) return sea.getAsset(UNIT_ASSET, 'utf8');
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, UNIT_ASSET);
    if (fs.existsSync(candidate)) return fs.readFileSync(candidate, 'utf8');
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${UNIT_ASSET} is not in this checkout`);
    dir = up;
  }
}
