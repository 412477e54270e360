/** Providers that ignore dots in the local part, and the domain their aliases stand for. */
const DOTLESS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address delivers to, as a key for per-mailbox limits: lower-cased, a
 * `+tag` dropped from the local part, and for Gmail dots dropped and googlemail.com
 * folded into gmail.com. `victim+1@…` and `Victim+2@…` are one mailbox, so one count.
 * A key only: mail still goes to the address as written.
 */
export function canonicalMailbox(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  const dotless = DOTLESS[domain];
  if (dotless) {
    domain = dotless;
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}
