/**
 * Limits and timing of a `PersistentResultStore`.
 *
 * ## Example
 * ```ts
 * new PersistentResultStore(keyValueStorage(), { maxTotalChars: 1_000_000 });
 * ```
 */
export interface PersistentResultStoreOptions {
  /** Most entries kept in storage; the oldest result written is evicted first. @default 50_000 */
  maxEntries?: number;
  /**
   * Most characters kept in storage in total (items and their names, the index included).
   * `OfficeRuntime.storage` allows 10 MB per add-in domain (shared with other add-ins there and
   * with the add-in's settings and saved jobs) and `localStorage` about 5 million characters, so
   * this stays below both: 10,000 results of 340 characters each (the key with its inputs, and
   * the outputs) fit. @default 4_000_000
   */
  maxTotalChars?: number;
  /**
   * Most characters of results kept in memory (each counted as its stored text and 100 more),
   * far more than storage: a recalculation reuses what this page paid for even when storage is
   * full. Measured in Node: 20,000 typical results (285 characters each) take 11 MB of heap,
   * 1.4 bytes per character counted, so the default holds at most some 35 MB. @default 24_000_000
   */
  maxMemoryChars?: number;
  /** A larger result is reused while in memory but not written to storage. @default 200_000 */
  maxEntryChars?: number;
  /** Writes are batched: one storage call per this many ms at most. @default 100 */
  flushDelayMs?: number;
  /**
   * Rows per stored index segment: a flush rewrites only the segments that changed.
   * @default 500
   */
  indexSegmentRows?: number;
  /** Storage item names start with this. @default "spellrun.results" */
  prefix?: string;
  /** The clock, injectable for specs. @default Date.now */
  now?: () => number;
  /**
   * Calls `callback` once after `ms` and returns what cancels it: the flush timer, injectable so
   * specs drive it on a clock of their own instead of replacing the page's global timers (which
   * other code in the same page, a network client among it, relies on).
   * @default `setTimeout`, cancelled by `clearTimeout`
   */
  schedule?: (callback: () => void, ms: number) => () => void;
}
