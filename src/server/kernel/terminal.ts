import { BIDI_CONTROL_CHARS, unicodeEscape } from '../../shared/bidi';

// Text that users typed (names, referrers, user agents, node labels) reaches the
// operator's terminal through the CLI. Control characters in it could move the
// cursor, rewrite earlier lines, set the window title or, on some terminals, send
// keystrokes back; bidi overrides could make a line read differently than it is.
// They are shown as visible escapes instead; the bidi controls are the console's (shared/bidi.ts).
const CONTROLS = new RegExp(`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${BIDI_CONTROL_CHARS}]`, 'g');
const LINE_BREAKS = /[\t\n\u2028\u2029]/g;

const visible = (c: string) => {
  const code = c.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : unicodeEscape(c);
};

/** A whole output line: our own tabs and line breaks stay, every other control is escaped. */
export function terminalLine(s: string): string {
  return s.replace(CONTROLS, visible);
}

/** One user-supplied value inside a line: tabs and line breaks are escaped too, so it cannot fake columns or lines. */
export function terminalField(s: string | null | undefined): string {
  return terminalLine(String(s ?? '')).replace(LINE_BREAKS, visible);
}

/** How a command that failed says why on stderr: a configuration error as it is, anything else after "error:". */
export function failureLine(err: unknown, isConfigError: boolean): string {
  return terminalLine(
    isConfigError ? `${(err as Error).message}\n` : `error: ${err instanceof Error ? err.message : String(err)}\n`,
  );
}
