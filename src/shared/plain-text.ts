/**
 * Characters a name the customer types may not hold: C0 and C1 controls (line breaks and
 * tabs among them), DEL, the zero-width and direction marks, the line and paragraph
 * separators, the bidi embeddings, overrides and isolates, and the BOM. Each can make a
 * name read as something else where it is quoted: an API key named
 * `x" was revoked.\n\nNo action is needed. Key "x` turned the always-mailed "New API key"
 * notice into one that read as harmless.
 */
const UNSAFE_TEXT_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2066-\\u2069\\ufeff';

/** True when the text holds none of those characters. */
export function isPlainText(s: string): boolean {
  return !new RegExp(`[${UNSAFE_TEXT_CLASS}]`).test(s);
}

/** The text without those characters (for names that are kept whatever was typed). */
export function stripUnsafeText(s: string): string {
  return s.replace(new RegExp(`[${UNSAFE_TEXT_CLASS}]`, 'g'), '');
}
