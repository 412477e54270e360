import { BIDI_CONTROL_CHARS } from './bidi';

/**
 * Characters a name the customer types may not hold: C0 and C1 controls (line breaks and
 * tabs among them), DEL, the zero-width marks, the line and paragraph separators, the BOM
 * and the bidi controls (bidi.ts). Each can make a name read as something else where it
 * is quoted: an API key named `x" was revoked.\n\nNo action is needed. Key "x` turned the
 * always-mailed "New API key" notice into one that read as harmless.
 */
const UNSAFE_TEXT_CLASS = `\\u0000-\\u001f\\u007f-\\u009f\\u200b-\\u200d\\u2028\\u2029\\ufeff${BIDI_CONTROL_CHARS}`;
const UNSAFE_TEXT = new RegExp(`[${UNSAFE_TEXT_CLASS}]`);
const UNSAFE_TEXT_ALL = new RegExp(`[${UNSAFE_TEXT_CLASS}]`, 'g');

/** True when the text holds none of those characters. */
export function isPlainText(s: string): boolean {
  return !UNSAFE_TEXT.test(s);
}

/** The text without those characters (for names that are kept whatever was typed). */
export function stripUnsafeText(s: string): string {
  return s.replace(UNSAFE_TEXT_ALL, '');
}
