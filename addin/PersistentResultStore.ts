import type { ResultStore } from "spellrun";
import { hashText } from "./hashText.js";
import type { KeyValueStorage } from "./keyValueStorage.js";
import { ResultIndexLane } from "./ResultIndexLane.js";

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
}

/**
 * How many entries the store's limits have cost so far (since it was made): each was paid for,
 * and may be paid again.
 */
export interface ResultStoreLosses {
  /**
   * Results taken out of storage to make room: a reload no longer reuses them (memory may still
   * hold them until then).
   */
  resultsNotStored: number;
  /**
   * Records of started runs taken out of storage (only when no result was left to take): a
   * reload while such a run is still going sends it again.
   */
  startedRunsNotStored: number;
  /**
   * Results in neither memory nor storage any more (some of them counted in `resultsNotStored`
   * too): the next calculation runs them again.
   */
  resultsForgotten: number;
  /**
   * Flushes storage refused (full with other data, or unavailable): what they held is reused
   * until a reload only.
   */
  writesRefused: number;
}

/** One index row of an earlier version: [item id, expiresAt (ms since epoch), characters stored]. */
type LegacyRow = [id: string, expiresAt: number, chars: number];

interface StoredEntry {
  key: string;
  outputs: Record<string, unknown>;
}

/** What the store knows of an entry; its outputs are in `values` while in memory. */
interface Row {
  expiresAt: number;
  /** Characters of its stored text (`{key, outputs}` as JSON). */
  chars: number;
  /** A started run's record (see `startedRunKey` in src/runs/StartedRun.ts), not a result. */
  started: boolean;
  /** In the stored index (and its item written, or to be written at the next flush). */
  stored: boolean;
}

/** The prefix of a started run's key (`startedRunKey` in src/runs/StartedRun.ts). */
const STARTED_RUN_PREFIX = "started ";
/** What a result held in memory costs besides its text (maps, objects), in characters. */
const MEMORY_OVERHEAD_CHARS = 100;

/**
 * A `ResultStore` that survives reloads of the add-in: successful outputs, and the runs started
 * and not yet ended, in an asynchronous key-value storage (`OfficeRuntime.storage`), so that
 * recalculation and reopening a workbook reuse them instead of paying for new runs.
 *
 * Two tiers. Memory keeps every entry set or read, bounded by characters (`maxMemoryChars`, some
 * 60,000 typical results); storage keeps the newest within `maxTotalChars` and `maxEntries`, so
 * that a reload reuses them. When memory is full it lets go first of results storage holds (the
 * newest, which storage keeps longest), so that together they hold as many as they can. Records of started runs are taken out of either tier only when no
 * result is left to take: a record lost while its run goes on is a run paid again after a
 * reload. What the limits cost is counted (`losses`). Expired entries are dropped when seen.
 *
 * Storage layout: one item per entry, holding the full reuse key so a hash collision can never
 * return another run's outputs; the index (ids, expiry, sizes, oldest first) in segments of
 * `indexSegmentRows` rows, one lane for results and one for started runs, listed by one small
 * head item. Writes are batched into one `removeItems` and one `setItems` per `flushDelayMs`,
 * rewriting only the segments that changed. A storage failure never fails a formula: the store
 * only forgets.
 *
 * ## Example
 * ```ts
 * const store = new PersistentResultStore(keyValueStorage());
 * const client = new SpellClient({ ...connection, reuse: { ttlMs: 86_400_000, store } });
 * ```
 */
export class PersistentResultStore implements ResultStore {
  private readonly maxEntries: number;
  private readonly maxTotalChars: number;
  private readonly maxMemoryChars: number;
  private readonly maxEntryChars: number;
  private readonly flushDelayMs: number;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly rows = new Map<string, Row>();
  /** Results in memory that storage holds too. */
  private readonly storedValues = new Map<string, StoredEntry>();
  /**
   * Ids of `storedValues`, newest last; an id no longer there is skipped when met (memory lets
   * go of the newest first: storage keeps them longest).
   */
  private storedValueOrder: string[] = [];
  /**
   * Results in memory only (storage let go of them, or too large for it), least recently used
   * first: memory lets go of these last, since nothing can read them again.
   */
  private readonly onlyValues = new Map<string, StoredEntry>();
  /** Started runs' records in memory, oldest first. */
  private readonly startedValues = new Map<string, StoredEntry>();
  private memoryChars = 0;
  private readonly resultLane: ResultIndexLane;
  private readonly startedLane: ResultIndexLane;
  /** Characters of the stored entries: their items, item names and index rows. */
  private storedChars = 0;
  /** Ids whose item storage holds (as of the writes sent). */
  private readonly written = new Set<string>();
  /** Index segments storage holds (as of the writes sent). */
  private readonly writtenSegments = new Set<string>();
  /** The head item as last written (`undefined`: to be written). */
  private writtenHead: string | undefined;
  private readonly pendingWrites = new Map<string, string>();
  private readonly pendingRemoves = new Set<string>();
  /** The entries of the flush under way, readable until storage has them. */
  private writing = new Map<string, string>();
  private readonly lost: ResultStoreLosses = {
    resultsNotStored: 0,
    startedRunsNotStored: 0,
    resultsForgotten: 0,
    writesRefused: 0,
  };
  private loaded: Promise<void> | undefined;
  /** Set once `loaded` has resolved: `get` then answers from memory without a promise. */
  private indexReady = false;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Entries to read from storage, asked for in this turn (see `readItem`). */
  private reads: Map<string, ((text: string | null) => void)[]> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  /**
   * @param storage where results are kept
   * @param options limits and timing
   */
  constructor(
    private readonly storage: KeyValueStorage,
    options: PersistentResultStoreOptions = {}
  ) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxTotalChars = options.maxTotalChars ?? 4_000_000;
    this.maxMemoryChars = options.maxMemoryChars ?? 24_000_000;
    this.maxEntryChars = options.maxEntryChars ?? 200_000;
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.prefix = options.prefix ?? "spellrun.results";
    this.now = options.now ?? Date.now;
    const segmentRows = options.indexSegmentRows ?? 500;
    this.resultLane = new ResultIndexLane("r", segmentRows);
    this.startedLane = new ResultIndexLane("s", segmentRows);
  }

  /** How many entries are remembered (in memory, in storage or both). */
  get size(): number {
    return this.rows.size;
  }

  /** How many entries storage holds (once pending writes are flushed). */
  get storedSize(): number {
    return this.resultLane.size + this.startedLane.size;
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
    const entry = this.memoryOf(row).get(id);
    if (entry) {
      if (!row.started && !row.stored) {
        // Recently used: the last to leave memory.
        this.onlyValues.delete(id);
        this.onlyValues.set(id, entry);
      }
      return entry.key === key ? entry.outputs : undefined;
    }
    return this.readRemembered(key, id, row);
  }

  /** The outputs of a remembered entry not in memory, read from storage. */
  private async readRemembered(
    key: string,
    id: string,
    row: Row
  ): Promise<Record<string, unknown> | undefined> {
    const entry = await this.readEntry(id);
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
    this.keepInMemory(id, row, entry);
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
    const row: Row = {
      expiresAt: this.now() + ttlMs,
      chars: text.length,
      started: key.startsWith(STARTED_RUN_PREFIX),
      stored: false,
    };
    this.rows.set(id, row);
    if (text.length <= this.maxEntryChars) this.store(id, row, text);
    this.keepInMemory(id, row, entry);
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
    Object.assign(this.lost, {
      resultsNotStored: 0,
      startedRunsNotStored: 0,
      resultsForgotten: 0,
      writesRefused: 0,
    });
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

  private memoryOf(row: Row): Map<string, StoredEntry> {
    if (row.started) return this.startedValues;
    return row.stored ? this.storedValues : this.onlyValues;
  }

  private laneOf(row: Row): ResultIndexLane {
    return row.started ? this.startedLane : this.resultLane;
  }

  private keepInMemory(id: string, row: Row, entry: StoredEntry): void {
    const memory = this.memoryOf(row);
    if (memory.has(id)) return;
    memory.set(id, entry);
    if (memory === this.storedValues) {
      this.storedValueOrder.push(id);
      // Ids that left meanwhile are dropped once they are half of the list.
      if (this.storedValueOrder.length > 2 * this.storedValues.size + 64) this.compactOrder();
    }
    this.memoryChars += row.chars + MEMORY_OVERHEAD_CHARS;
  }

  private forgetInMemory(id: string, row: Row): void {
    if (this.memoryOf(row).delete(id)) this.memoryChars -= row.chars + MEMORY_OVERHEAD_CHARS;
  }

  /** Adds an entry to the stored index; its text is written at the next flush. */
  private store(id: string, row: Row, text: string): void {
    this.laneOf(row).add(id, this.indexRow(id, row));
    row.stored = true;
    this.storedChars += this.storedCost(id, row);
    this.pendingWrites.set(id, text);
    this.pendingRemoves.delete(id);
  }

  /**
   * Takes an entry out of the stored index (its item is removed at the next flush); a result in
   * memory stays there, as one nothing can read again.
   */
  private unstore(id: string, row: Row): void {
    if (!row.stored) return;
    this.laneOf(row).remove(id);
    const entry = this.storedValues.get(id);
    if (entry) {
      this.storedValues.delete(id);
      this.onlyValues.set(id, entry);
    }
    row.stored = false;
    this.storedChars -= this.storedCost(id, row);
    this.pendingWrites.delete(id);
    if (this.written.has(id)) this.pendingRemoves.add(id);
  }

  /** Forgets an entry everywhere. */
  private drop(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.unstore(id, row);
    this.forgetInMemory(id, row);
    this.rows.delete(id);
  }

  /**
   * Storage within its limits: the oldest stored results leave it first (kept in memory while
   * there), then, only when no result is left, the oldest started runs' records.
   */
  private evictStorage(): void {
    while (
      this.storedSize > this.maxEntries ||
      this.storedChars + this.indexOverhead() > this.maxTotalChars
    ) {
      const id = this.resultLane.oldest() ?? this.startedLane.oldest();
      const row = id === undefined ? undefined : this.rows.get(id);
      if (id === undefined || !row) return;
      if (row.started) this.lost.startedRunsNotStored++;
      else this.lost.resultsNotStored++;
      this.unstore(id, row);
      if (!this.memoryOf(row).has(id)) {
        // Nowhere now: the next calculation runs it again.
        this.rows.delete(id);
        if (!row.started) this.lost.resultsForgotten++;
      }
    }
  }

  /**
   * Memory within its limit. Results storage holds too leave it first, newest first (storage
   * keeps those longest, and they are read again when asked for); then results in memory only,
   * least recently used first (paid runs forgotten); only when no result is left, started runs'
   * records. So memory and storage together hold as many results as they can.
   */
  private evictMemory(): void {
    while (this.memoryChars > this.maxMemoryChars) {
      const id =
        this.newestStoredValue() ?? firstKey(this.onlyValues) ?? firstKey(this.startedValues);
      const row = id === undefined ? undefined : this.rows.get(id);
      if (id === undefined || !row) return;
      this.forgetInMemory(id, row);
      if (!row.stored) {
        this.rows.delete(id);
        if (row.started) this.lost.startedRunsNotStored++;
        else this.lost.resultsForgotten++;
      }
    }
  }

  /** `storedValueOrder` without the ids no longer in `storedValues`, each once (its last place). */
  private compactOrder(): void {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (let index = this.storedValueOrder.length - 1; index >= 0; index--) {
      const id = this.storedValueOrder[index];
      if (seen.has(id) || !this.storedValues.has(id)) continue;
      seen.add(id);
      kept.push(id);
    }
    this.storedValueOrder = kept.reverse();
  }

  /** The id of the newest result in memory that storage holds too, if any. */
  private newestStoredValue(): string | undefined {
    const order = this.storedValueOrder;
    while (order.length > 0) {
      const id = order[order.length - 1];
      if (this.storedValues.has(id)) return id;
      order.pop();
    }
    return undefined;
  }

  /** The characters an entry takes in storage: its item, the item's name, its index row. */
  private storedCost(id: string, row: Row): number {
    return row.chars + this.itemKey(id).length + this.indexRow(id, row).length + 1;
  }

  /**
   * An upper bound of what the head item and the segments' names take in storage (segment
   * names of up to 12 characters).
   */
  private indexOverhead(): number {
    const segments = this.resultLane.segmentCount + this.startedLane.segmentCount;
    return this.indexKey().length + 40 + segments * (this.prefix.length + 40);
  }

  private indexRow(id: string, row: Row): string {
    return `${id} ${row.expiresAt.toString(36)} ${row.chars.toString(36)}`;
  }

  private load(): Promise<void> {
    this.loaded ??= this.readIndex().then(() => {
      this.indexReady = true;
    });
    return this.loaded;
  }

  private async readIndex(): Promise<void> {
    try {
      const parsed: unknown = JSON.parse((await this.storage.getItem(this.indexKey())) ?? "null");
      if (isSegmentedHead(parsed)) await this.readSegments(parsed.segments);
      else if (Array.isArray(parsed)) this.takeLegacyRows(await this.rekey(parsed));
      else if (isRowsIndex(parsed)) this.takeLegacyRows(parsed.rows.filter(isLegacyRow));
      else this.writtenHead = undefined;
    } catch {
      // An unreadable index loses the remembered results, nothing more.
    }
    const now = this.now();
    for (const [id, row] of [...this.rows]) if (row.expiresAt <= now) this.drop(id);
    this.evictStorage();
    if (this.pendingRemoves.size > 0 || this.writtenHead === undefined) this.scheduleFlush();
  }

  /** The index's segments, read together; a segment that cannot be read loses its rows. */
  private async readSegments(names: string[]): Promise<void> {
    const texts = await Promise.all(
      names.map((name) => this.storage.getItem(this.segmentKey(name)).catch(() => null))
    );
    names.forEach((name, index) => {
      const text = texts[index];
      const lane = name.startsWith(this.startedLane.tag) ? this.startedLane : this.resultLane;
      if (!text) return;
      this.writtenSegments.add(name);
      const restored: [string, string][] = [];
      for (const line of text.split("\n")) {
        const [id, expires, chars] = line.split(" ");
        const row: Row = {
          expiresAt: parseInt(expires, 36),
          chars: parseInt(chars, 36),
          started: lane === this.startedLane,
          stored: true,
        };
        if (!id || !Number.isFinite(row.expiresAt) || !Number.isFinite(row.chars)) continue;
        if (this.rows.has(id)) continue;
        this.rows.set(id, row);
        this.written.add(id);
        this.storedChars += this.storedCost(id, row);
        restored.push([id, line]);
      }
      lane.restore(name, restored);
    });
    this.writtenHead = JSON.stringify(this.head(names));
  }

  /** The rows of an index in an earlier layout (one item): kept as results, written anew. */
  private takeLegacyRows(rows: LegacyRow[]): void {
    for (const [id, expiresAt, chars] of rows) {
      if (this.rows.has(id)) continue;
      const row: Row = { expiresAt, chars, started: false, stored: true };
      this.rows.set(id, row);
      this.resultLane.add(id, this.indexRow(id, row));
      this.storedChars += this.storedCost(id, row);
      if (!this.pendingWrites.has(id)) this.written.add(id);
    }
    // The head is written in today's layout (over the old index item) at the next flush.
    this.writtenHead = undefined;
  }

  /**
   * Rows of an earlier version's index under today's ids: each entry is read once (it holds its
   * full key), written again under `resultId(key)` and removed under its old id, so that results
   * remembered before an update are still reused after it.
   */
  private async rekey(parsed: unknown[]): Promise<LegacyRow[]> {
    const legacyRows = parsed.filter(isLegacyRow);
    const now = this.now();
    const live = legacyRows.filter(([, expiresAt]) => expiresAt > now);
    const entries = await Promise.all(live.map(([oldId]) => this.readEntry(oldId)));
    const rows: LegacyRow[] = [];
    live.forEach(([oldId, expiresAt, chars], index) => {
      const entry = entries[index];
      const id = entry === undefined ? undefined : resultId(entry.key);
      if (id !== oldId) this.pendingRemoves.add(oldId);
      if (entry === undefined || id === undefined) return;
      rows.push([id, expiresAt, chars]);
      this.pendingWrites.set(id, JSON.stringify(entry));
    });
    for (const [oldId, expiresAt] of legacyRows) {
      if (expiresAt <= now) this.pendingRemoves.add(oldId);
    }
    return rows;
  }

  private async readEntry(id: string): Promise<StoredEntry | undefined> {
    try {
      const text = this.pendingWrites.get(id) ?? this.writing.get(id) ?? (await this.readItem(id));
      const parsed: unknown = JSON.parse(text ?? "null");
      if (parsed && typeof parsed === "object" && "key" in parsed && "outputs" in parsed) {
        return parsed as StoredEntry;
      }
    } catch {
      // Unreadable: treated as not remembered.
    }
    return undefined;
  }

  /**
   * An entry's stored text, read with the others asked for in the same turn (a recalculation
   * after a reload asks for thousands at once): one `getItems` where storage has it.
   */
  private readItem(id: string): Promise<string | null> {
    return new Promise((resolve) => {
      if (!this.reads) {
        this.reads = new Map();
        queueMicrotask(() => this.readAsked());
      }
      const waiting = this.reads.get(id);
      if (waiting) waiting.push(resolve);
      else this.reads.set(id, [resolve]);
    });
  }

  private readAsked(): void {
    const reads = this.reads ?? new Map<string, ((text: string | null) => void)[]>();
    this.reads = undefined;
    const keys = [...reads.keys()].map((id) => this.itemKey(id));
    const storage = this.storage;
    const reading = storage.getItems
      ? storage.getItems(keys)
      : Promise.all(keys.map((key) => storage.getItem(key).catch(() => null))).then((texts) =>
          Object.fromEntries(keys.map((key, index) => [key, texts[index]]))
        );
    const answer = (items: Record<string, string | null | undefined>) => {
      for (const [id, waiting] of reads) {
        const text = items[this.itemKey(id)] ?? null;
        for (const resolve of waiting) resolve(text);
      }
    };
    // Unreadable: treated as not remembered.
    reading.then(answer, () => answer({}));
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.flushDelayMs);
  }

  private head(names: string[]): { ids: "hashText"; segments: string[] } {
    return { ids: "hashText", segments: names };
  }

  private async writePending(): Promise<void> {
    // Not loaded: nothing changed, and an index not read yet must not be written over.
    if (!this.indexReady) return;
    const results = this.resultLane.takeChanges();
    const started = this.startedLane.takeChanges();
    const head = JSON.stringify(
      this.head([...this.resultLane.names(), ...this.startedLane.names()])
    );
    const items: Record<string, string> = {};
    const removes: string[] = [];
    for (const [id, text] of this.pendingWrites) {
      items[this.itemKey(id)] = text;
      this.written.add(id);
    }
    for (const id of this.pendingRemoves) {
      removes.push(this.itemKey(id));
      this.written.delete(id);
    }
    for (const { write, remove } of [results, started]) {
      for (const [name, text] of write) {
        items[this.segmentKey(name)] = text;
        this.writtenSegments.add(name);
      }
      for (const name of remove) {
        if (this.writtenSegments.delete(name)) removes.push(this.segmentKey(name));
      }
    }
    if (head !== this.writtenHead) items[this.indexKey()] = head;
    if (Object.keys(items).length === 0 && removes.length === 0) return;
    this.writtenHead = head;
    this.writing = new Map(this.pendingWrites);
    this.pendingWrites.clear();
    this.pendingRemoves.clear();
    try {
      if (removes.length > 0) await this.storage.removeItems(removes);
      if (Object.keys(items).length > 0) await this.storage.setItems(items);
    } catch {
      // Full or unavailable storage: results stay reusable in memory until the next reload.
      this.lost.writesRefused++;
    } finally {
      this.writing = new Map();
    }
  }

  private indexKey(): string {
    return `${this.prefix}.index`;
  }

  private segmentKey(name: string): string {
    return `${this.prefix}.index.${name}`;
  }

  private itemKey(id: string): string {
    return `${this.prefix}.${id}`;
  }
}

function firstKey(map: Map<string, unknown>): string | undefined {
  for (const key of map.keys()) return key;
  return undefined;
}

function isLegacyRow(value: unknown): value is LegacyRow {
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

/** The index of the previous version: every row in the one index item. */
function isRowsIndex(value: unknown): value is { ids: "hashText"; rows: unknown[] } {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { ids?: unknown }).ids === "hashText" &&
    Array.isArray((value as { rows?: unknown }).rows)
  );
}

/** Today's head item: the index's segments, oldest first per lane. */
function isSegmentedHead(value: unknown): value is { ids: "hashText"; segments: string[] } {
  const segments = (value as { segments?: unknown } | null)?.segments;
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { ids?: unknown }).ids === "hashText" &&
    Array.isArray(segments) &&
    segments.every((name) => typeof name === "string" && /^[rs]\d+$/.test(name))
  );
}
