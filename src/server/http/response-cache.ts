/**
 * Serialized JSON bodies of public, user-independent GET calls (the coin list, stats)
 * for a short time. Under load almost every request is served from here; a change
 * made by this process clears it at once, one made by the CLI shows within the TTL.
 */
export class ResponseCache {
  private entries = new Map<string, { body: string; expires: number }>();
  constructor(private readonly maxEntries = 1000) {}

  get(key: string, now = Date.now()): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.body;
  }

  set(key: string, body: string, ttlMs: number, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { body, expires: now + ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
