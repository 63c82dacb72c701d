import type { KeyValueStorage } from "../keyValueStorage.js";
import { BatchedItemReader } from "./BatchedItemReader.js";
import { indexHead } from "./indexHead.js";
import { ResultIndexLane } from "./ResultIndexLane.js";
import type { EntryRow, StoredEntry } from "./StoredEntry.js";

/**
 * Limits and layout of a `StorageTier`.
 *
 * @internal
 */
export interface StorageTierOptions {
  /** Storage item names start with this. */
  prefix: string;
  /** Most entries kept. */
  maxEntries: number;
  /** Most characters kept in total (items and their names, the index included). */
  maxTotalChars: number;
  /** Rows per stored index segment. */
  segmentRows: number;
}

/**
 * The storage tier of a `PersistentResultStore`: which entries storage holds, what they cost
 * there, and the writes that bring storage in step.
 *
 * Layout: one item per entry (`<prefix>.<id>`, holding its full key); the index in segments
 * (`<prefix>.index.r0`, …), one `ResultIndexLane` for results and one for started runs' records,
 * oldest first, listed by one head item (`<prefix>.index`). An entry's cost counts its item, the
 * item's name and its index row; `isOverLimits` adds a bound of what the head and the segments'
 * names take. Changes wait in `pendingWrites` and `pendingRemoves` until `writePending` sends them
 * as one `removeItems` and one `setItems`, rewriting only the segments that changed.
 *
 * The tier changes only a row's `stored` flag; the store keeps rows and the memory tier in step.
 *
 * ## Example
 * ```ts
 * const tier = new StorageTier(storage, { prefix, maxEntries, maxTotalChars, segmentRows: 500 });
 * tier.store(id, row, JSON.stringify(entry));
 * while (tier.isOverLimits()) tier.unstore(tier.oldest()!, rowOfOldest);
 * await tier.writePending();
 * ```
 *
 * @internal
 */
export class StorageTier {
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
  private readonly reader: BatchedItemReader;
  private readonly prefix: string;
  private readonly maxEntries: number;
  private readonly maxTotalChars: number;

  /**
   * @param storage where the entries are kept
   * @param options limits and layout
   */
  constructor(
    private readonly storage: KeyValueStorage,
    options: StorageTierOptions
  ) {
    this.prefix = options.prefix;
    this.maxEntries = options.maxEntries;
    this.maxTotalChars = options.maxTotalChars;
    this.resultLane = new ResultIndexLane("r", options.segmentRows);
    this.startedLane = new ResultIndexLane("s", options.segmentRows);
    this.reader = new BatchedItemReader(storage);
  }

  /** How many entries storage holds (once pending writes are flushed). */
  get size(): number {
    return this.resultLane.size + this.startedLane.size;
  }

  /**
   * Whether storage holds more entries, or characters, than its limits allow.
   *
   * @return `true` while an entry must go
   */
  isOverLimits(): boolean {
    return (
      this.size > this.maxEntries || this.storedChars + this.indexOverhead() > this.maxTotalChars
    );
  }

  /**
   * The entry storage lets go of first: the oldest result, or when no result is left the oldest
   * started run's record.
   *
   * @return its id, or `undefined` when storage holds nothing
   */
  oldest(): string | undefined {
    return this.resultLane.oldest() ?? this.startedLane.oldest();
  }

  /**
   * Adds an entry to the stored index; its text is written at the next flush.
   *
   * @param id the entry's id
   * @param row its row (`stored` turns `true`)
   * @param text its stored text
   */
  store(id: string, row: EntryRow, text: string): void {
    this.laneOf(row).add(id, this.indexRow(id, row));
    row.stored = true;
    this.storedChars += this.storedCost(id, row);
    this.pendingWrites.set(id, text);
    this.pendingRemoves.delete(id);
  }

  /**
   * Takes an entry out of the stored index (nothing when not there); its item is removed at the
   * next flush.
   *
   * @param id the entry's id
   * @param row its row (`stored` turns `false`)
   */
  unstore(id: string, row: EntryRow): void {
    if (!row.stored) return;
    this.laneOf(row).remove(id);
    row.stored = false;
    this.storedChars -= this.storedCost(id, row);
    this.pendingWrites.delete(id);
    if (this.written.has(id)) this.pendingRemoves.add(id);
  }

  /**
   * An entry's key and outputs: from the writes not yet done, or read from storage (with the
   * others asked for in the same turn).
   *
   * @param id the entry's id
   * @return the entry, or `undefined` when absent or unreadable
   */
  async readEntry(id: string): Promise<StoredEntry | undefined> {
    try {
      const text =
        this.pendingWrites.get(id) ??
        this.writing.get(id) ??
        (await this.reader.read(this.itemKey(id)));
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
   * The head item as stored, parsed (`null` when absent).
   *
   * @return the parsed head; rejects when unreadable
   */
  async readHead(): Promise<unknown> {
    return JSON.parse((await this.storage.getItem(this.indexKey())) ?? "null");
  }

  /**
   * Takes the index's segments, read together, into `rows` (an id `rows` has already is
   * skipped); a segment that cannot be read loses its rows.
   *
   * @param names the segments the head lists
   * @param rows the store's rows, added to
   */
  async readSegments(names: string[], rows: Map<string, EntryRow>): Promise<void> {
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
        const row: EntryRow = {
          expiresAt: parseInt(expires, 36),
          chars: parseInt(chars, 36),
          started: lane === this.startedLane,
          stored: true,
        };
        if (!id || !Number.isFinite(row.expiresAt) || !Number.isFinite(row.chars)) continue;
        if (rows.has(id)) continue;
        rows.set(id, row);
        this.written.add(id);
        this.storedChars += this.storedCost(id, row);
        restored.push([id, line]);
      }
      lane.restore(name, restored);
    });
    this.writtenHead = JSON.stringify(indexHead(names));
  }

  /**
   * Adds a result of an earlier index layout to the index (its item stored already, or to be
   * written anew by `writeAnew`).
   *
   * @param id the result's id
   * @param row its row (`stored` is `true`)
   */
  adopt(id: string, row: EntryRow): void {
    this.resultLane.add(id, this.indexRow(id, row));
    this.storedChars += this.storedCost(id, row);
    if (!this.pendingWrites.has(id)) this.written.add(id);
  }

  /**
   * Writes an entry's item at the next flush, without changing the index.
   *
   * @param id the entry's id
   * @param text its stored text
   */
  writeAnew(id: string, text: string): void {
    this.pendingWrites.set(id, text);
  }

  /**
   * Removes an item at the next flush, without changing the index.
   *
   * @param id the item's id
   */
  removeItem(id: string): void {
    this.pendingRemoves.add(id);
  }

  /** The head is written in today's layout (over an old index item) at the next flush. */
  rewriteHead(): void {
    this.writtenHead = undefined;
  }

  /**
   * Whether loading the index left writes to do (items to remove, or the head to write).
   *
   * @return `true` when a flush is due
   */
  needsFlush(): boolean {
    return this.pendingRemoves.size > 0 || this.writtenHead === undefined;
  }

  /**
   * Sends the pending changes: one `removeItems` and one `setItems` (items, changed segments and
   * the head when it changed), nothing when nothing changed. Never rejects.
   *
   * @return `false` when storage refused them (full or unavailable)
   */
  async writePending(): Promise<boolean> {
    const results = this.resultLane.takeChanges();
    const started = this.startedLane.takeChanges();
    const head = JSON.stringify(
      indexHead([...this.resultLane.names(), ...this.startedLane.names()])
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
    if (Object.keys(items).length === 0 && removes.length === 0) return true;
    this.writtenHead = head;
    this.writing = new Map(this.pendingWrites);
    this.pendingWrites.clear();
    this.pendingRemoves.clear();
    try {
      if (removes.length > 0) await this.storage.removeItems(removes);
      if (Object.keys(items).length > 0) await this.storage.setItems(items);
      return true;
    } catch {
      // Full or unavailable storage: results stay reusable in memory until the next reload.
      return false;
    } finally {
      this.writing = new Map();
    }
  }

  private laneOf(row: EntryRow): ResultIndexLane {
    return row.started ? this.startedLane : this.resultLane;
  }

  /** The characters an entry takes in storage: its item, the item's name, its index row. */
  private storedCost(id: string, row: EntryRow): number {
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

  private indexRow(id: string, row: EntryRow): string {
    return `${id} ${row.expiresAt.toString(36)} ${row.chars.toString(36)}`;
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
