import type { ResultStore } from "spellrun";
import type { KeyValueStorage } from "./keyValueStorage.js";
import { isIndexHead } from "./resultStore/indexHead.js";
import {
  isLegacyRow,
  isRowsIndex,
  rekeyLegacyRows,
  takeLegacyRows,
} from "./resultStore/legacyIndexLayouts.js";
import { MemoryTier } from "./resultStore/MemoryTier.js";
import type { PersistentResultStoreOptions } from "./resultStore/PersistentResultStoreOptions.js";
import { resultId } from "./resultStore/resultId.js";
import { noLosses, type ResultStoreLosses } from "./resultStore/ResultStoreLosses.js";
import { StorageTier } from "./resultStore/StorageTier.js";
import type { EntryRow, StoredEntry } from "./resultStore/StoredEntry.js";

export type { PersistentResultStoreOptions } from "./resultStore/PersistentResultStoreOptions.js";
export type { ResultStoreLosses } from "./resultStore/ResultStoreLosses.js";

/** The prefix of a started run's key (`startedRunKey` in src/runs/StartedRun.ts). */
const STARTED_RUN_PREFIX = "started ";

/**
 * A `ResultStore` that survives reloads of the add-in: successful outputs, and the runs started
 * and not yet ended, in an asynchronous key-value storage (`OfficeRuntime.storage`), so that
 * recalculation and reopening a workbook reuse them instead of paying for new runs.
 *
 * Two tiers. Memory (`resultStore/MemoryTier.ts`) keeps every entry set or read, bounded by
 * characters (`maxMemoryChars`, some 60,000 typical results); storage
 * (`resultStore/StorageTier.ts`) keeps the newest within `maxTotalChars` and `maxEntries`, so
 * that a reload reuses them. When memory is full it lets go first of results storage holds (the
 * newest, which storage keeps longest), so that together they hold as many as they can. Records
 * of started runs are taken out of either tier only when no result is left to take: a record lost
 * while its run goes on is a run paid again after a reload. What the limits cost is counted
 * (`losses`). Expired entries are dropped when seen.
 *
 * Storage layout: one item per entry, holding the full reuse key so a hash collision can never
 * return another run's outputs; the index (ids, expiry, sizes, oldest first) in segments of
 * `indexSegmentRows` rows, one lane for results and one for started runs, listed by one small
 * head item. Writes are batched into one `removeItems` and one `setItems` per `flushDelayMs`,
 * rewriting only the segments that changed. Indexes of two earlier layouts are taken over on
 * load (`resultStore/legacyIndexLayouts.ts`). A storage failure never fails a formula: the store
 * only forgets.
 *
 * ## Example
 * ```ts
 * const store = new PersistentResultStore(keyValueStorage());
 * const client = new SpellClient({ ...connection, reuse: { ttlMs: 86_400_000, store } });
 * ```
 */
export class PersistentResultStore implements ResultStore {
  private readonly maxEntryChars: number;
  private readonly flushDelayMs: number;
  private readonly now: () => number;
  /** Every entry remembered, in memory or storage or both. */
  private readonly rows = new Map<string, EntryRow>();
  private readonly memory: MemoryTier;
  private readonly storageTier: StorageTier;
  private readonly lost = noLosses();
  private loaded: Promise<void> | undefined;
  /** Set once `loaded` has resolved: `get` then answers from memory without a promise. */
  private indexReady = false;
  private readonly schedule: (callback: () => void, ms: number) => () => void;
  /** Cancels the flush waiting to run, if one is. */
  private cancelFlush: (() => void) | undefined;
  private flushing: Promise<void> = Promise.resolve();

  /**
   * @param storage where results are kept
   * @param options limits and timing
   */
  constructor(storage: KeyValueStorage, options: PersistentResultStoreOptions = {}) {
    this.maxEntryChars = options.maxEntryChars ?? 200_000;
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? scheduleTimeout;
    this.memory = new MemoryTier(options.maxMemoryChars ?? 24_000_000);
    this.storageTier = new StorageTier(storage, {
      prefix: options.prefix ?? "spellrun.results",
      maxEntries: options.maxEntries ?? 50_000,
      maxTotalChars: options.maxTotalChars ?? 4_000_000,
      segmentRows: options.indexSegmentRows ?? 500,
    });
  }

  /** How many entries are remembered (in memory, in storage or both). */
  get size(): number {
    return this.rows.size;
  }

  /** How many entries storage holds (once pending writes are flushed). */
  get storedSize(): number {
    return this.storageTier.size;
  }

  /**
   * What the limits have cost so far: results and started runs a reload, or the next
   * calculation, will pay for again.
   *
   * ## Example
   * ```ts
   * if (store.losses().startedRunsNotStored > 0) console.warn("storage is full");
   * ```
   */
  losses(): ResultStoreLosses {
    return { ...this.lost };
  }

  /**
   * The remembered outputs for `key`, or `undefined` when none or expired.
   *
   * @param key the core's reuse key
   */
  get(
    key: string
  ): Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined> {
    // Answered without a promise once the index is loaded, unless the outputs must be read from
    // storage: a recalculation of a filled-down column asks for thousands of keys at once.
    if (!this.indexReady) return this.load().then(() => this.get(key));
    const id = resultId(key);
    const row = this.rows.get(id);
    if (!row) return undefined;
    if (row.expiresAt <= this.now()) {
      this.drop(id);
      this.scheduleFlush();
      return undefined;
    }
    const entry = this.memory.get(id, row);
    if (entry) return entry.key === key ? entry.outputs : undefined;
    return this.readRemembered(key, id, row);
  }

  /** The outputs of a remembered entry not in memory, read from storage. */
  private async readRemembered(
    key: string,
    id: string,
    row: EntryRow
  ): Promise<Record<string, unknown> | undefined> {
    const entry = await this.storageTier.readEntry(id);
    if (this.rows.get(id) !== row) {
      // Set, deleted or evicted meanwhile: answered as it is now.
      const now = this.get(key);
      return now instanceof Promise ? undefined : now;
    }
    if (!entry) {
      this.drop(id);
      this.scheduleFlush();
      return undefined;
    }
    this.memory.keep(id, row, entry);
    this.evictMemory();
    return entry.key === key ? entry.outputs : undefined;
  }

  /**
   * Remembers successful outputs (or a started run's record) for `ttlMs` (nothing when `ttlMs`
   * is 0 or less).
   *
   * @param key the core's reuse key
   * @param outputs the outputs of a successful run
   * @param ttlMs how long they may be reused
   */
  async set(key: string, outputs: Record<string, unknown>, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    await this.load();
    const id = resultId(key);
    const entry: StoredEntry = { key, outputs };
    const text = JSON.stringify(entry);
    this.drop(id);
    const row: EntryRow = {
      expiresAt: this.now() + ttlMs,
      chars: text.length,
      started: key.startsWith(STARTED_RUN_PREFIX),
      stored: false,
    };
    this.rows.set(id, row);
    if (text.length <= this.maxEntryChars) this.storageTier.store(id, row, text);
    this.memory.keep(id, row, entry);
    this.evictStorage();
    this.evictMemory();
    this.scheduleFlush();
  }

  /**
   * Forgets `key` (a started run that ended), in memory and in storage.
   *
   * @param key the key to forget
   */
  async delete(key: string): Promise<void> {
    await this.load();
    this.drop(resultId(key));
    this.scheduleFlush();
  }

  /**
   * Forgets every result, in memory and in storage.
   *
   * ## Example
   * ```ts
   * await store.clear();
   * ```
   */
  async clear(): Promise<void> {
    await this.load();
    for (const id of [...this.rows.keys()]) this.drop(id);
    // Nothing is left that the limits cost.
    Object.assign(this.lost, noLosses());
    await this.flush();
  }

  /**
   * Writes pending changes now (before a reload, or when a spec needs them stored).
   *
   * ## Example
   * ```ts
   * await store.flush();
   * ```
   */
  flush(): Promise<void> {
    if (this.cancelFlush !== undefined) {
      this.cancelFlush();
      this.cancelFlush = undefined;
    }
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  /**
   * Takes an entry out of storage (its item is removed at the next flush); a result in memory
   * stays there, as one nothing can read again.
   */
  private unstore(id: string, row: EntryRow): void {
    if (!row.stored) return;
    this.memory.leftStorage(id);
    this.storageTier.unstore(id, row);
  }

  /** Forgets an entry everywhere. */
  private drop(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.unstore(id, row);
    this.memory.forget(id, row);
    this.rows.delete(id);
  }

  /**
   * Storage within its limits: the oldest stored results leave it first (kept in memory while
   * there), then, only when no result is left, the oldest started runs' records.
   */
  private evictStorage(): void {
    while (this.storageTier.isOverLimits()) {
      const id = this.storageTier.oldest();
      const row = id === undefined ? undefined : this.rows.get(id);
      if (id === undefined || !row) return;
      if (row.started) this.lost.startedRunsNotStored++;
      else this.lost.resultsNotStored++;
      this.unstore(id, row);
      if (!this.memory.has(id, row)) {
        // Nowhere now: the next calculation runs it again.
        this.rows.delete(id);
        if (!row.started) this.lost.resultsForgotten++;
      }
    }
  }

  /**
   * Memory within its limit, in the order `MemoryTier` lets go (results storage holds too, then
   * results in memory only, then started runs' records), so that memory and storage together
   * hold as many results as they can.
   */
  private evictMemory(): void {
    while (this.memory.isOverLimit()) {
      const id = this.memory.nextToLetGo();
      const row = id === undefined ? undefined : this.rows.get(id);
      if (id === undefined || !row) return;
      this.memory.forget(id, row);
      if (!row.stored) {
        this.rows.delete(id);
        if (row.started) this.lost.startedRunsNotStored++;
        else this.lost.resultsForgotten++;
      }
    }
  }

  private load(): Promise<void> {
    this.loaded ??= this.readIndex().then(() => {
      this.indexReady = true;
    });
    return this.loaded;
  }

  private async readIndex(): Promise<void> {
    const storage = this.storageTier;
    try {
      const parsed = await storage.readHead();
      if (isIndexHead(parsed)) await storage.readSegments(parsed.segments, this.rows);
      else if (Array.isArray(parsed)) {
        takeLegacyRows(await rekeyLegacyRows(parsed, storage, this.now()), this.rows, storage);
      } else if (isRowsIndex(parsed)) {
        takeLegacyRows(parsed.rows.filter(isLegacyRow), this.rows, storage);
      } else storage.rewriteHead();
    } catch {
      // An unreadable index loses the remembered results, nothing more.
    }
    const now = this.now();
    for (const [id, row] of [...this.rows]) if (row.expiresAt <= now) this.drop(id);
    this.evictStorage();
    if (storage.needsFlush()) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.cancelFlush !== undefined) return;
    this.cancelFlush = this.schedule(() => {
      this.cancelFlush = undefined;
      void this.flush();
    }, this.flushDelayMs);
  }

  private async writePending(): Promise<void> {
    // Not loaded: nothing changed, and an index not read yet must not be written over.
    if (!this.indexReady) return;
    if (!(await this.storageTier.writePending())) this.lost.writesRefused++;
  }
}

/** The default timer: `setTimeout`, cancelled by `clearTimeout`. */
function scheduleTimeout(callback: () => void, ms: number): () => void {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
}
