import { tarBuffer, type TarEntry } from '../../kernel/tar';
import { plainFileName } from '../engine';

/**
 * A tar of a few small regular files, made in memory: what the Docker Engine API's
 * `PUT /containers/{id}/archive` takes to place a node's files in its container before
 * it starts. Flat names only (no folders); no owner (the runtime gives the files to the
 * container's user, `copyUIDGID`). A name that is not plain is refused at once.
 */
export type TarFile = { name: string; content: string | Buffer; mode: number };

export function tarOf(files: TarFile[], mtime?: Date): Promise<Buffer> {
  for (const f of files)
    if (!plainFileName(f.name)) throw new Error(`tar: ${JSON.stringify(f.name)} is not a plain file name`);
  return tarBuffer(files satisfies TarEntry[], mtime);
}
