import type { KeyValueStorage } from "../keyValueStorage.js";

/**
 * Reads storage items asked for in the same turn together: a recalculation after a reload asks
 * for thousands of a `PersistentResultStore`'s entries at once, and gets them in one `getItems`
 * where storage has it (one `getItem` each otherwise). An item that cannot be read reads as
 * `null`; a read never fails.
 *
 * ## Example
 * ```ts
 * const reader = new BatchedItemReader(storage);
 * const [a, b] = await Promise.all([reader.read("p.k1"), reader.read("p.k2")]); // one getItems
 * ```
 *
 * @internal
 */
export class BatchedItemReader {
  /** Item names to read, asked for in this turn, and who waits for each. */
  private reads: Map<string, ((text: string | null) => void)[]> | undefined;

  /**
   * @param storage where the items are
   */
  constructor(private readonly storage: KeyValueStorage) {}

  /**
   * An item's text, read with the others asked for in the same turn.
   *
   * @param name the item's name
   * @return its text, or `null` when absent or unreadable
   */
  read(name: string): Promise<string | null> {
    return new Promise((resolve) => {
      if (!this.reads) {
        this.reads = new Map();
        queueMicrotask(() => this.readAsked());
      }
      const waiting = this.reads.get(name);
      if (waiting) waiting.push(resolve);
      else this.reads.set(name, [resolve]);
    });
  }

  private readAsked(): void {
    const reads = this.reads ?? new Map<string, ((text: string | null) => void)[]>();
    this.reads = undefined;
    const keys = [...reads.keys()];
    const storage = this.storage;
    const reading = storage.getItems
      ? storage.getItems(keys)
      : Promise.all(keys.map((key) => storage.getItem(key).catch(() => null))).then((texts) =>
          Object.fromEntries(keys.map((key, index) => [key, texts[index]]))
        );
    const answer = (items: Record<string, string | null | undefined>) => {
      for (const [name, waiting] of reads) {
        const text = items[name] ?? null;
        for (const resolve of waiting) resolve(text);
      }
    };
    // Unreadable: treated as not remembered.
    reading.then(answer, () => answer({}));
  }
}
