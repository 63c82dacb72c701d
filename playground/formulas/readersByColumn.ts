/** Which formulas may read a block, looked up by column rather than by scanning every formula. */
import type { CellBlock } from "../excel/a1.js";
import type { MockCell } from "../excel/mockWorkbook.js";
import type { FormulaState } from "./formulaState.js";

/** Columns up to which a dependency or a block is indexed by column. */
const NARROW = 64;

/**
 * An index of the formulas by the columns they read, from the states now: its lookup gives the
 * formulas that may read a block (those with a dependency on one of its columns, and those
 * reading more than 64 columns), in the order of `states`. A paste of 100,000 formulas was
 * quadratic when every formula was scanned for each evaluated cell.
 *
 * @param states The engine's formulas (the index holds until their dependencies change).
 * @returns The lookup: a sheet and a block to the formulas that may read it.
 */
export function readersByColumn(
  states: ReadonlyMap<MockCell, FormulaState>
): (sheet: string, block: CellBlock) => MockCell[] {
  const order = new Map<MockCell, number>();
  const bySheet = new Map<string, Map<number, MockCell[]>>();
  const wide: MockCell[] = [];
  for (const [cell, state] of states) {
    order.set(cell, order.size);
    for (const { sheet, block } of state.dependencies) {
      if (block.columnCount > NARROW) {
        wide.push(cell);
        continue;
      }
      const columns = bySheet.get(sheet) ?? new Map<number, MockCell[]>();
      bySheet.set(sheet, columns);
      for (let column = block.left; column < block.left + block.columnCount; column++) {
        const cells = columns.get(column);
        if (!cells) columns.set(column, [cell]);
        else if (cells[cells.length - 1] !== cell) cells.push(cell);
      }
    }
  }
  const all = [...order.keys()];
  return (sheet, block) => {
    if (block.columnCount > NARROW) return all;
    const columns = bySheet.get(sheet);
    const found = new Set<MockCell>(wide);
    for (let column = block.left; column < block.left + block.columnCount; column++) {
      for (const cell of columns?.get(column) ?? []) found.add(cell);
    }
    return [...found].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  };
}
