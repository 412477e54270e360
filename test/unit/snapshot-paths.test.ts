import { describe, expect, it } from 'vitest';
import { BootstrapError, shownUrl, snapshotPath } from '../../src/server/fleet/bootstrap';

const file = (name: string, type = 'file') => ({ name, type, size: 0, mode: 0o644 });

describe("a chain snapshot's entries", () => {
  it('keeps files and folders inside the data folder, without a leading ./', () => {
    expect(snapshotPath(file('./regtest/blocks/blk00000.dat'))).toBe('regtest/blocks/blk00000.dat');
    expect(snapshotPath(file('chainstate/', 'directory'))).toBe('chainstate');
  });

  it.each([
    ['../escaped', 'file', 'points outside the data folder'],
    ['/etc/passwd', 'file', 'points outside the data folder'],
    ['blocks/../../x', 'file', 'points outside the data folder'],
    ['blocks//x', 'file', 'points outside the data folder'],
    ['blocks/link', 'symlink', 'a symlink: only files and folders'],
    ['blocks/hard', 'link', 'a link: only files and folders'],
    ['dev', 'char-device', 'a char-device: only files and folders'],
  ])('refuses %s (%s)', (name, type, says) => {
    expect(() => snapshotPath(file(name, type))).toThrow(BootstrapError);
    expect(() => snapshotPath(file(name, type))).toThrow(says);
  });

  it('shows its URL without credentials or query', () => {
    expect(shownUrl('https://user:pw@snap.example/ltc.tar.gz?token=x')).toBe('https://snap.example/ltc.tar.gz');
  });
});
