/** Header of the status column the task pane adds right of a selection. */
export const STATUS_HEADER = "Spell status";

/**
 * Where a bulk's results go: a status column right of the selection, then one column per output
 * name, in the order the names first appear (absolute, zero-based column indexes).
 *
 * ## Example
 * ```ts
 * const layout = new OutputLayout(3);   // status in D
 * layout.columnOf("summary");           // 4 (E); a new name gets the next free column
 * ```
 */
export class OutputLayout {
  private readonly columns = new Map<string, number>();

  /**
   * @param statusColumn the status column; outputs follow it
   * @param names output names that already have columns (e.g. headers of an earlier run)
   */
  constructor(
    readonly statusColumn: number,
    names: readonly string[] = []
  ) {
    for (const name of names) this.columnOf(name);
  }

  /** The output names in column order. */
  get names(): string[] {
    return [...this.columns.keys()];
  }

  /** Number of columns used, the status column included. */
  get width(): number {
    return 1 + this.columns.size;
  }

  /** The column of an output name, given the next free column when the name is new. */
  columnOf(name: string): number {
    let column = this.columns.get(name);
    if (column === undefined) {
      column = this.statusColumn + 1 + this.columns.size;
      this.columns.set(name, column);
    }
    return column;
  }
}
