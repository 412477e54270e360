import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';

/**
 * Every tar the server writes or reads goes through tar-stream, here: the docker engine's
 * container files (fleet/engines/tar.ts) and the backups (ops/backup.ts). Regular files
 * only, with no owner (uid and gid 0).
 */
export type TarEntry = { name: string; mode: number } & ({ content: string | Buffer } | { file: string });

/**
 * A ustar archive of `entries`, produced as it is read: a file on disk is streamed in, so
 * a database of any size never sits in memory. Every entry gets `mtime`.
 */
export function packTar(entries: TarEntry[], mtime = new Date()): Readable {
  const pack = tar.pack();
  const write = async () => {
    for (const e of entries) {
      const header = { name: e.name, mode: e.mode, mtime };
      if ('file' in e) {
        const size = (await fs.promises.stat(e.file)).size;
        await pipeline(fs.createReadStream(e.file), pack.entry({ ...header, size }));
      } else {
        const content = e.content;
        await new Promise<void>((resolve, reject) =>
          pack.entry(header, content, (err) => (err ? reject(err) : resolve())),
        );
      }
    }
    pack.finalize();
  };
  write().catch((err: unknown) => pack.destroy(err as Error));
  return pack;
}

/** The whole archive in memory (a few small files). */
export async function tarBuffer(entries: TarEntry[], mtime?: Date): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of packTar(entries, mtime)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type TarFileHeader = { name: string; size: number; type: string; mode: number };

/**
 * Reads the tar in `source` entry by entry: `onEntry` gets each header and its content,
 * which it must read to the end (or throw, which stops the whole read with its error).
 */
export async function readTar(
  source: Readable,
  onEntry: (header: TarFileHeader, content: Readable) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  extract.on('entry', (header, content, next) => {
    onEntry(
      { name: header.name, size: header.size ?? 0, type: header.type ?? 'file', mode: header.mode ?? 0o644 },
      content,
    ).then(
      () => next(),
      (err: unknown) => {
        content.resume();
        extract.destroy(err as Error);
      },
    );
  });
  await pipeline(source, extract);
}

/**
 * A new tar of the entries of `source`, written as they are read: `name` gives each entry's
 * name in the new archive (or null to leave it out), and may throw to stop with its error.
 * Only files and folders are carried (the caller's `name` refuses anything else), without
 * setuid, setgid or sticky bits, nor write access for others.
 */
export function repackTar(source: Readable, name: (header: TarFileHeader) => string | null): Readable {
  const pack = tar.pack();
  readTar(source, async (header, content) => {
    const to = name(header);
    if (to === null || (header.type !== 'file' && header.type !== 'directory')) {
      content.resume();
      return;
    }
    if (header.type === 'directory') {
      content.resume();
      pack.entry({ name: to, type: 'directory', mode: header.mode & 0o755 });
      return;
    }
    await pipeline(content, pack.entry({ name: to, type: 'file', mode: header.mode & 0o755, size: header.size }));
  }).then(
    () => pack.finalize(),
    (err: unknown) => pack.destroy(err as Error),
  );
  return pack;
}
