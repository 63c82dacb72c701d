import type { EntryRow, StoredEntry } from "./StoredEntry.js";

/** What a result held in memory costs besides its text (maps, objects), in characters. */
const MEMORY_OVERHEAD_CHARS = 100;

/**
 * The memory tier of a `PersistentResultStore`: the entries' outputs held in memory, bounded by
 * characters (each entry counted as its stored text and `MEMORY_OVERHEAD_CHARS` more), in three
 * groups that set the order in which memory lets go of them (`nextToLetGo`):
 *
 * 1. results storage holds too, newest first (storage keeps those longest, and they are read
 *    again when asked for);
 * 2. results in memory only, least recently used first (paid runs forgotten);
 * 3. only when no result is left, started runs' records, oldest first.
 *
 * Which group an entry is in follows its row (`started`, `stored`); the store keeps rows and
 * tiers in step, and counts what letting go costs.
 *
 * ## Example
 * ```ts
 * const memory = new MemoryTier(24_000_000);
 * memory.keep(id, row, entry);
 * while (memory.isOverLimit()) memory.forget(memory.nextToLetGo()!, row);
 * ```
 *
 * @internal
 */
export class MemoryTier {
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
  private chars = 0;

  /**
   * @param maxChars most characters counted in memory (`maxMemoryChars`)
   */
  constructor(private readonly maxChars: number) {}

  /**
   * Whether memory holds more characters than its limit.
   *
   * @return `true` while an entry must go
   */
  isOverLimit(): boolean {
    return this.chars > this.maxChars;
  }

  /**
   * The entry held for `id`, if any; a result only memory has becomes the most recently used.
   *
   * @param id the entry's id
   * @param row its row
   * @return the entry, or `undefined` when memory does not hold it
   */
  get(id: string, row: EntryRow): StoredEntry | undefined {
    const entry = this.groupOf(row).get(id);
    if (entry && !row.started && !row.stored) {
      // Recently used: the last to leave memory.
      this.onlyValues.delete(id);
      this.onlyValues.set(id, entry);
    }
    return entry;
  }

  /**
   * Whether memory holds the entry `id`.
   *
   * @param id the entry's id
   * @param row its row
   * @return `true` when held
   */
  has(id: string, row: EntryRow): boolean {
    return this.groupOf(row).has(id);
  }

  /**
   * Holds an entry (nothing when it is held already), in the group its row names.
   *
   * @param id the entry's id
   * @param row its row
   * @param entry its key and outputs
   */
  keep(id: string, row: EntryRow, entry: StoredEntry): void {
    const memory = this.groupOf(row);
    if (memory.has(id)) return;
    memory.set(id, entry);
    if (memory === this.storedValues) {
      this.storedValueOrder.push(id);
      // Ids that left meanwhile are dropped once they are half of the list.
      if (this.storedValueOrder.length > 2 * this.storedValues.size + 64) this.compactOrder();
    }
    this.chars += row.chars + MEMORY_OVERHEAD_CHARS;
  }

  /**
   * Lets go of an entry (nothing when it is not held).
   *
   * @param id the entry's id
   * @param row its row
   */
  forget(id: string, row: EntryRow): void {
    if (this.groupOf(row).delete(id)) this.chars -= row.chars + MEMORY_OVERHEAD_CHARS;
  }

  /**
   * Moves a result storage let go of among those only memory has, as the most recently used
   * (call before its row's `stored` turns `false`, or after: the result's id decides).
   *
   * @param id the result's id
   */
  leftStorage(id: string): void {
    const entry = this.storedValues.get(id);
    if (entry) {
      this.storedValues.delete(id);
      this.onlyValues.set(id, entry);
    }
  }

  /**
   * The id of the entry memory lets go of first (see the class), if any.
   *
   * @return the id, or `undefined` when memory is empty
   */
  nextToLetGo(): string | undefined {
    return this.newestStoredValue() ?? firstKey(this.onlyValues) ?? firstKey(this.startedValues);
  }

  private groupOf(row: EntryRow): Map<string, StoredEntry> {
    if (row.started) return this.startedValues;
    return row.stored ? this.storedValues : this.onlyValues;
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
}

function firstKey(map: Map<string, unknown>): string | undefined {
  for (const key of map.keys()) return key;
  return undefined;
}
