import { describe, expect, it } from 'vitest';
import { terminalField } from '../../src/server/kernel/terminal';
import { bidiParts, escapeBidi } from '../../src/shared/bidi';

const CONTROLS = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];

describe('bidi controls in customer text', () => {
  it('writes every bidi control out as its escape and leaves other text alone', () => {
    expect(escapeBidi('\u202Eevil')).toBe('\\u202eevil');
    for (const c of CONTROLS)
      expect(escapeBidi(`a${c}b`), c).toBe(`a\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}b`);
    // Right-to-left letters, emoji and the zero-width joiner are text, not controls.
    expect(escapeBidi('שלום مرحبا 👩‍💻 plain')).toBe('שלום مرحبا 👩‍💻 plain');
    expect(escapeBidi('\u2065\u2029\u202f')).toBe('\u2065\u2029\u202f');
  });

  it('cuts text into runs and escapes, in order, for the console to style', () => {
    expect(bidiParts('\u202Eevil')).toEqual([
      { text: '\\u202e', escape: true },
      { text: 'evil', escape: false },
    ]);
    expect(bidiParts('a\u2066\u2069b')).toEqual([
      { text: 'a', escape: false },
      { text: '\\u2066', escape: true },
      { text: '\\u2069', escape: true },
      { text: 'b', escape: false },
    ]);
    expect(bidiParts('')).toEqual([]);
    expect(bidiParts('plain')).toEqual([{ text: 'plain', escape: false }]);
  });

  it('the CLI escapes the same characters the same way', () => {
    for (const c of CONTROLS) expect(terminalField(`x${c}y`), c).toBe(escapeBidi(`x${c}y`));
  });
});
