import { plainFileName } from '../engine';

/**
 * A ustar archive of a few small regular files, made in memory: what the Docker Engine
 * API's `PUT /containers/{id}/archive` takes to place a node's files in its container
 * before it starts. Only what that needs: flat names (no folders), modes, no owner (the
 * runtime gives the files to the container's user, `copyUIDGID`).
 */
export type TarFile = { name: string; content: string | Buffer; mode: number };

const BLOCK = 512;

function octal(n: number, width: number): string {
  // width - 1 digits and a NUL, as ustar fields are written by GNU tar.
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** One ustar header block (a plain file). */
export function tarHeader(name: string, size: number, mode: number, mtime: number): Buffer {
  if (!plainFileName(name)) throw new Error(`tar: ${JSON.stringify(name)} is not a plain file name`);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 'utf8');
  h.write(octal(mode & 0o7777, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum field counts as spaces while summing
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

export function tarOf(files: TarFile[], mtime = Math.floor(Date.now() / 1000)): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    const body = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    parts.push(
      tarHeader(f.name, body.length, f.mode, mtime),
      body,
      Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK, 0),
    );
  }
  // The end of the archive: two zero blocks.
  parts.push(Buffer.alloc(2 * BLOCK, 0));
  return Buffer.concat(parts);
}
