/** Structural edits of a mock workbook's grid: moving cells and the names that refer to them. */
import type { MockCell } from "./mockWorkbookTypes.js";
import type { WorkbookState } from "./workbookState.js";

/** Moves or resizes names on `sheet` for an insert (`count` > 0) or delete (< 0) at `at`. */
export function moveNames(
  state: WorkbookState,
  sheet: string,
  axis: "row" | "column",
  at: number,
  count: number
): void {
  for (const [name, target] of state.names) {
    if (!target || target.sheet !== sheet) continue;
    const start = axis === "row" ? target.block.top : target.block.left;
    const size = axis === "row" ? target.block.rowCount : target.block.columnCount;
    let newStart = start;
    let newSize = size;
    if (count > 0) {
      if (at <= start) newStart = start + count;
      else if (at < start + size) newSize = size + count;
    } else {
      const end = at - count; // deleted: at..end-1
      const overlap = Math.max(0, Math.min(end, start + size) - Math.max(at, start));
      if (end <= start) newStart = start + count;
      else if (at <= start) newStart = at;
      newSize = size - overlap;
    }
    if (newSize <= 0) {
      state.names.set(name, undefined); // the whole block was deleted: the name shows #REF!
      continue;
    }
    target.block =
      axis === "row"
        ? { ...target.block, top: newStart, rowCount: newSize }
        : { ...target.block, left: newStart, columnCount: newSize };
  }
}

/** Moves every cell of a sheet by `move` (undefined drops it). */
export function remapCells(
  state: WorkbookState,
  sheet: string,
  move: (row: number, column: number) => [number, number] | undefined
): void {
  const before = state.sheets.get(sheet);
  if (!before) throw new Error(`No sheet named ${sheet}`);
  const after = new Map<number, Map<number, MockCell>>();
  for (const [row, cells] of before) {
    for (const [column, cell] of cells) {
      const to = move(row, column);
      if (!to) continue;
      let target = after.get(to[0]);
      if (!target) after.set(to[0], (target = new Map()));
      target.set(to[1], cell);
    }
  }
  state.sheets.set(sheet, after);
}
