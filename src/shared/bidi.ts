/**
 * Bidi control characters in text a customer typed: embeddings and overrides
 * (U+202A-U+202E), isolates (U+2066-U+2069), the marks U+200E, U+200F and U+061C. One
 * of them can make text read differently than it is ("\u202Eevil" shows as "live"), so
 * wherever an operator reads customer text (the console, the CLI) each is shown as its
 * visible escape instead. One rule, for both.
 */
export const BIDI_CONTROL_CHARS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

const BIDI = new RegExp(`[${BIDI_CONTROL_CHARS}]`, 'g');

/** "\u202e" for U+202E: how one bidi control (or any character) is written out. */
export function unicodeEscape(c: string): string {
  return `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`;
}

/** The text with every bidi control written out as its escape (for attributes and plain strings). */
export function escapeBidi(s: string): string {
  return s.replace(BIDI, unicodeEscape);
}

/** The text cut into plain runs and escapes, in order, so a page can style the escapes. */
export function bidiParts(s: string): { text: string; escape: boolean }[] {
  const parts: { text: string; escape: boolean }[] = [];
  let last = 0;
  for (const m of s.matchAll(BIDI)) {
    if (m.index > last) parts.push({ text: s.slice(last, m.index), escape: false });
    parts.push({ text: unicodeEscape(m[0]), escape: true });
    last = m.index + 1;
  }
  if (last < s.length) parts.push({ text: s.slice(last), escape: false });
  return parts;
}
