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
  private columns = new Map<string, number>();
  private status: number;

  /**
   * @param statusColumn the status column; outputs follow it
   * @param names output names that already have columns (e.g. headers of an earlier run)
   */
  constructor(statusColumn: number, names: readonly string[] = []) {
    this.status = statusColumn;
    for (const name of names) this.columnOf(name);
  }

  /** The status column. */
  get statusColumn(): number {
    return this.status;
  }

  /**
   * Where the block is now (found by the header row's text after the user inserted, deleted or
   * moved columns): the status column and the columns of the output names found. Names not
   * found get new columns again, right of every known one. Columns between may be the user's:
   * writes leave them alone (`null`).
   */
  relocate(statusColumn: number, found: ReadonlyMap<string, number>): void {
    const names = this.names;
    this.status = statusColumn;
    this.columns = new Map();
    for (const name of names) {
      const column = found.get(name);
      if (column !== undefined) this.columns.set(name, column);
    }
    for (const name of names) this.columnOf(name);
  }

  /** The output names in column order. */
  get names(): string[] {
    return [...this.columns.keys()];
  }

  /** Columns from the status column to the last output column (user's columns between included). */
  get width(): number {
    return Math.max(this.status, ...this.columns.values()) - this.status + 1;
  }

  /** The column of an output name, given the next free column (right of all) when the name is new. */
  columnOf(name: string): number {
    let column = this.columns.get(name);
    if (column === undefined) {
      column = Math.max(this.status, ...this.columns.values()) + 1;
      this.columns.set(name, column);
    }
    return column;
  }
}
