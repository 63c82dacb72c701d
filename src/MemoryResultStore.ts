import type { ResultStore } from "./types.js";

interface Entry {
  outputs: Record<string, unknown>;
  expiresAt: number;
}

/**
 * The default `ResultStore`: successes kept in memory for their TTL, at most `maxEntries` of
 * them (the oldest is evicted first). Lost on reload; pass your own store to persist.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ ...connection, reuse: { store: new MemoryResultStore(200) } });
 * ```
 */
export class MemoryResultStore implements ResultStore {
  // A Map iterates in insertion order, so its first key is always the oldest entry.
  private readonly entries = new Map<string, Entry>();

  /**
   * @param maxEntries the most results kept at once
   * @param now the clock, injectable for specs
   */
  constructor(
    readonly maxEntries = 1000,
    private readonly now: () => number = Date.now
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.outputs;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  set(key: string, outputs: Record<string, unknown>, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { outputs, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
