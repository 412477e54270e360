/**
 * The part of tar-stream 2 (no published types for it here) that kernel/tar.ts uses;
 * nothing else imports the library.
 */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export type Headers = {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    uid?: number;
    gid?: number;
    type?: 'file' | 'link' | 'symlink' | 'directory' | 'character-device' | 'block-device' | 'fifo' | 'contiguous-file';
  };
  type Done = (err?: Error | null) => void;

  export interface Pack extends Readable {
    entry(header: Headers, content: string | Buffer, callback?: Done): Writable;
    entry(header: Headers, callback?: Done): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(
      event: 'entry',
      listener: (
        header: Required<Pick<Headers, 'name' | 'size' | 'type'>> & Headers,
        stream: Readable,
        next: Done,
      ) => void,
    ): this;
    on(event: string | symbol, listener: (...args: any[]) => void): this;
  }

  const tar: { pack(): Pack; extract(): Extract };
  export default tar;
}
