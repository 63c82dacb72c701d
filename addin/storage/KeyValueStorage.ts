/**
 * The asynchronous key-value storage the add-in keeps its settings and remembered results in:
 * the shape of `OfficeRuntime.storage`, with the batch calls the result store needs.
 *
 * ## Example
 * ```ts
 * await keyValueStorage().setItems({ a: "1", b: "2" });
 * ```
 */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  /**
   * Reads several items in one call (`null` for one not there); without it, `getItem` each.
   * A recalculation after a reload reads thousands of remembered results at once.
   */
  getItems?(keys: string[]): Promise<Record<string, string | null>>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
  /** Writes several items in one call. */
  setItems(items: Record<string, string>): Promise<void>;
  /** Removes several items in one call. */
  removeItems(keys: string[]): Promise<void>;
}
