/**
 * Serialized JSON bodies of public, user-independent GET calls (the coin list, stats)
 * for a short time. Under load almost every request is served from here; a change
 * made by this process clears it at once, one made by the CLI shows within the TTL.
 */
export class ResponseCache {
  private entries = new Map<string, { body: string; expires: number }>();
  private pending = new Map<string, Promise<string>>();
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

  /**
   * The entry, or one computation shared by every caller that misses at once: after a
   * market refresh clears the cache, a burst computes the coin list once, not per request.
   */
  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = compute()
        .then((body) => {
          this.set(key, body, ttlMs);
          return body;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  clear(): void {
    this.entries.clear();
  }
}
