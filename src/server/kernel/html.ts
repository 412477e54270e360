/**
 * The server's one HTML escaper, for the few pages and mail parts it writes as strings
 * (notification mail, the unsubscribe page, the API docs). Escapes all five characters
 * that matter in text and in quoted attributes (single quotes too).
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
