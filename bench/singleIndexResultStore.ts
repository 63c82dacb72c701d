import type { ResultStore } from "spellrun";
import { hashText } from "../addin/hashText.js";
import type { KeyValueStorage } from "../addin/keyValueStorage.js";

/**
 * Limits and timing of a `SingleIndexResultStore`.
 *
 * ## Example
 * ```ts
 * new SingleIndexResultStore(keyValueStorage(), { maxEntries: 500 });
 * ```
 */
export interface SingleIndexResultStoreOptions {
  /** Most results kept; the oldest written is evicted first. @default 2000 */
  maxEntries?: number;
  /**
   * Most characters kept in storage in total. `OfficeRuntime.storage` allows 10 MB per add-in
   * domain (shared with other add-ins there) and `localStorage` about 5 million characters, so
   * this stays well below both. @default 2_000_000
   */
  maxTotalChars?: number;
  /** A larger result is reused while in memory but not written to storage. @default 200_000 */
  maxEntryChars?: number;
  /** Writes are batched: one storage call per this many ms at most. @default 100 */
  flushDelayMs?: number;
  /** Storage item names start with this. @default "spellrun.results" */
  prefix?: string;
  /** The clock, injectable for specs. @default Date.now */
  now?: () => number;
}

/** One index row: [item id, expiresAt (ms since epoch), characters stored]. */
type IndexRow = [id: string, expiresAt: number, chars: number];

/**
 * The stored index. Item ids are `resultId(key)`; an index stored as a bare array of rows was
 * written by an earlier version, whose ids came from another hash: it is re-keyed once.
 */
interface StoredIndex {
  ids: "hashText";
  rows: IndexRow[];
}

interface StoredEntry {
  key: string;
  outputs: Record<string, unknown>;
}

/**
 * The add-in's result store as it was before its index was split into segments (kept for
 * `bench/resultStore.ts`, which compares the flush cost of both layouts in one run): one index
 * item holding every row, rewritten by every flush, and one limit of 2,000 entries for memory and
 * storage alike. Not used by the add-in.
 *
 * A `ResultStore` that survives reloads of the add-in: successful outputs in an asynchronous
 * key-value storage (`OfficeRuntime.storage`), so recalculation and reopening a workbook reuse
 * them instead of paying for new runs.
 *
 * Storage layout: one small index item (ids, expiry, sizes, oldest first) plus one item per result,
 * holding the full reuse key so a hash collision can never return another run's outputs. Bounded
 * by count and by characters, oldest evicted first; expired entries are dropped when seen. Writes
 * are batched into one `setItems`/`removeItems` per `flushDelayMs`. A storage failure never fails
 * a formula: the store only forgets.
 *
 * ## Example
 * ```ts
 * const store = new SingleIndexResultStore(keyValueStorage());
 * const client = new SpellClient({ ...connection, reuse: { ttlMs: 86_400_000, store } });
 * ```
 */
export class SingleIndexResultStore implements ResultStore {
  private readonly maxEntries: number;
  private readonly maxTotalChars: number;
  private readonly maxEntryChars: number;
  private readonly flushDelayMs: number;
  private readonly prefix: string;
  private readonly now: () => number;
  // Insertion order is age order: the first key is the oldest entry.
  private index = new Map<string, { expiresAt: number; chars: number }>();
  private totalChars = 0;
  private readonly values = new Map<string, StoredEntry>();
  private readonly pendingWrites = new Map<string, string>();
  private readonly pendingRemoves = new Set<string>();
  /**
   * Entries set since the last write that storage has never held: evicted before it, they cost
   * no write and no remove (a recalculation of 10,000 cells keeps the last 2,000).
   */
  private readonly unwritten = new Set<string>();
  /** The index changed with nothing to write or remove besides it. */
  private indexChanged = false;
  private loaded: Promise<void> | undefined;
  /** Set once `loaded` has resolved: `get` then answers from memory without a promise. */
  private indexReady = false;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  /**
   * @param storage where results are kept
   * @param options limits and timing
   */
  constructor(
    private readonly storage: KeyValueStorage,
    options: SingleIndexResultStoreOptions = {}
  ) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxTotalChars = options.maxTotalChars ?? 2_000_000;
    this.maxEntryChars = options.maxEntryChars ?? 200_000;
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.prefix = options.prefix ?? "spellrun.results";
    this.now = options.now ?? Date.now;
  }

  /** How many results are remembered. */
  get size(): number {
    return this.index.size;
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
    // storage: a recalculation of a filled-down column asks for a thousand keys at once.
    if (!this.indexReady) return this.load().then(() => this.get(key));
    const id = resultId(key);
    const row = this.index.get(id);
    if (!row) return undefined;
    if (row.expiresAt <= this.now()) {
      this.forget(id);
      this.scheduleFlush();
      return undefined;
    }
    const entry = this.values.get(id);
    if (entry) return entry.key === key ? entry.outputs : undefined;
    return this.readRemembered(key, id);
  }

  /** The outputs of a remembered entry not in memory yet, read from storage. */
  private async readRemembered(
    key: string,
    id: string
  ): Promise<Record<string, unknown> | undefined> {
    const entry = await this.readEntry(id);
    if (!entry) {
      this.forget(id);
      this.scheduleFlush();
      return undefined;
    }
    if (this.index.has(id)) this.values.set(id, entry);
    return entry.key === key ? entry.outputs : undefined;
  }

  /**
   * Remembers successful outputs for `ttlMs` (nothing when `ttlMs` is 0 or less).
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
    if (!this.index.has(id) && !this.pendingRemoves.has(id)) this.unwritten.add(id);
    this.forget(id);
    this.pendingRemoves.delete(id);
    this.values.set(id, entry);
    this.index.set(id, { expiresAt: this.now() + ttlMs, chars: text.length });
    this.totalChars += text.length;
    if (text.length <= this.maxEntryChars) this.pendingWrites.set(id, text);
    this.evict();
    this.scheduleFlush();
  }

  /**
   * Forgets `key` (a started run that ended), in memory and in storage.
   *
   * @param key the key to forget
   */
  async delete(key: string): Promise<void> {
    await this.load();
    this.forget(resultId(key));
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
    for (const id of [...this.index.keys()]) this.forget(id);
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
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private load(): Promise<void> {
    this.loaded ??= this.readIndex().then(() => {
      this.indexReady = true;
    });
    return this.loaded;
  }

  private async readIndex(): Promise<void> {
    let rows: IndexRow[] = [];
    try {
      const parsed: unknown = JSON.parse((await this.storage.getItem(this.indexKey())) ?? "null");
      if (Array.isArray(parsed)) {
        rows = await this.rekey(parsed.filter(isIndexRow));
      } else if (isStoredIndex(parsed)) {
        rows = parsed.rows.filter(isIndexRow);
      }
    } catch {
      // An unreadable index loses the remembered results, nothing more.
    }
    const now = this.now();
    for (const [id, expiresAt, chars] of rows) {
      if (this.index.has(id)) continue;
      this.index.set(id, { expiresAt, chars });
      this.totalChars += chars;
      if (expiresAt <= now) this.forget(id);
    }
    this.evict();
    if (this.pendingRemoves.size > 0) this.scheduleFlush();
  }

  /**
   * Rows of an earlier version's index under today's ids: each entry is read once (it holds its
   * full key), written again under `resultId(key)` and removed under its old id, so that results
   * remembered before an update are still reused after it.
   */
  private async rekey(legacyRows: IndexRow[]): Promise<IndexRow[]> {
    const now = this.now();
    const live = legacyRows.filter(([, expiresAt]) => expiresAt > now);
    const entries = await Promise.all(live.map(([oldId]) => this.readEntry(oldId)));
    const rows: IndexRow[] = [];
    live.forEach(([oldId, expiresAt, chars], index) => {
      const entry = entries[index];
      const id = entry === undefined ? undefined : resultId(entry.key);
      if (id !== oldId) this.pendingRemoves.add(oldId);
      if (entry === undefined || id === undefined) return;
      rows.push([id, expiresAt, chars]);
      this.values.set(id, entry);
      this.pendingWrites.set(id, JSON.stringify(entry));
    });
    for (const [oldId, expiresAt] of legacyRows) {
      if (expiresAt <= now) this.pendingRemoves.add(oldId);
    }
    // Written in the new format even when nothing was left to move.
    this.scheduleFlush();
    return rows;
  }

  private async readEntry(id: string): Promise<StoredEntry | undefined> {
    try {
      const parsed: unknown = JSON.parse((await this.storage.getItem(this.itemKey(id))) ?? "null");
      if (parsed && typeof parsed === "object" && "key" in parsed && "outputs" in parsed) {
        return parsed as StoredEntry;
      }
    } catch {
      // Unreadable: treated as not remembered.
    }
    return undefined;
  }

  private forget(id: string): void {
    const row = this.index.get(id);
    if (!row) return;
    this.index.delete(id);
    this.totalChars -= row.chars;
    this.values.delete(id);
    this.pendingWrites.delete(id);
    if (this.unwritten.delete(id)) this.indexChanged = true;
    else this.pendingRemoves.add(id);
  }

  private evict(): void {
    while (this.index.size > this.maxEntries || this.totalChars > this.maxTotalChars) {
      const oldest = this.index.keys().next().value as string;
      this.forget(oldest);
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.flushDelayMs);
  }

  private async writePending(): Promise<void> {
    if (this.pendingWrites.size === 0 && this.pendingRemoves.size === 0 && !this.indexChanged) {
      return;
    }
    const items: Record<string, string> = {};
    for (const [id, text] of this.pendingWrites) items[this.itemKey(id)] = text;
    const stored: IndexRow[] = [...this.index]
      // Results too large to store stay in memory only; the index must not promise them.
      .filter(([, row]) => row.chars <= this.maxEntryChars)
      .map(([id, row]) => [id, row.expiresAt, row.chars]);
    const index: StoredIndex = { ids: "hashText", rows: stored };
    items[this.indexKey()] = JSON.stringify(index);
    const removes = [...this.pendingRemoves].map((id) => this.itemKey(id));
    this.pendingWrites.clear();
    this.pendingRemoves.clear();
    this.unwritten.clear();
    this.indexChanged = false;
    try {
      if (removes.length > 0) await this.storage.removeItems(removes);
      await this.storage.setItems(items);
    } catch {
      // Full or unavailable storage: results stay reusable in memory until the next reload.
    }
  }

  private indexKey(): string {
    return `${this.prefix}.index`;
  }

  private itemKey(id: string): string {
    return `${this.prefix}.${id}`;
  }
}

function isIndexRow(value: unknown): value is IndexRow {
  return (
    Array.isArray(value) &&
    typeof value[0] === "string" &&
    typeof value[1] === "number" &&
    typeof value[2] === "number"
  );
}

/**
 * The storage id of a reuse key (which holds whole inputs and may be long): its `hashText` in
 * base 36. A collision only costs a reuse: the stored full key is checked.
 */
function resultId(key: string): string {
  return hashText(key).toString(36);
}

function isStoredIndex(value: unknown): value is StoredIndex {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as StoredIndex).ids === "hashText" &&
    Array.isArray((value as StoredIndex).rows)
  );
}
