import { describe, expect, it } from 'vitest';
import { demuxLogs } from '../../src/server/fleet/engines/docker';

describe('docker log streams', () => {
  const frame = (stream: number, text: string) => {
    const body = Buffer.from(text);
    const header = Buffer.alloc(8);
    header[0] = stream;
    header.writeUInt32BE(body.length, 4);
    return Buffer.concat([header, body]);
  };

  it('demultiplexes stdout and stderr frames, and passes a raw (TTY) stream through', () => {
    expect(demuxLogs(Buffer.concat([frame(1, 'out 1\n'), frame(2, 'err 1\n'), frame(1, 'out 2\n')]))).toBe(
      'out 1\nerr 1\nout 2\n',
    );
    expect(demuxLogs(Buffer.from('plain text\nfrom a tty\n'))).toBe('plain text\nfrom a tty\n');
    expect(demuxLogs(Buffer.alloc(0))).toBe('');
    // A truncated frame is not a frame stream: shown raw rather than dropped.
    expect(demuxLogs(frame(1, 'cut short').subarray(0, 12))).toContain('cut');
  });
});
