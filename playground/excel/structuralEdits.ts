/**
 * Structural edits of a mock workbook's grid: moving cells, the formulas' references and the
 * names that refer to them, and the spills they cross.
 *
 * Spilled values are not cells of their own: Microsoft's "Dynamic array formulas and spilled
 * array behavior" says the formula lives in the top-left (anchor) cell only, and Excel computes
 * the spill range from it. So an edit never moves a spilled value as if it were typed: the
 * spills of the sheet are emptied first, and their anchors (moved, their references adjusted)
 * spill again when the formula engine evaluates them; a deleted anchor spills nothing.
 */
import { LAST_COLUMN, LAST_ROW } from "./a1.js";
import { adjustReferences } from "./adjustReferences.js";
import { MockOfficeError } from "./MockOfficeError.js";
import type { LineEdit } from "./adjustReferences.js";
import type { MockCell, MockCellValue } from "./mockWorkbookTypes.js";
import type { WorkbookState } from "./workbookState.js";

export type { LineEdit } from "./adjustReferences.js";

/**
 * Inserts (`count` > 0) or deletes (`count` < 0) rows or columns at `at` (zero-based), as Excel
 * does: cells past them move, cells deleted go, references of every formula in the workbook to
 * the sheet are adjusted (`#REF!` for a deleted cell), names move or shrink, spills are emptied
 * for their anchors to spill again.
 *
 * @param state The workbook's state.
 * @param edit The insert or delete.
 */
export function editLines(state: WorkbookState, edit: LineEdit): void {
  const { sheet, axis, at, count } = edit;
  if (count > 0) refuseShiftOffSheet(state, edit);
  const along = (row: number, column: number) => (axis === "row" ? row : column);
  const place = (row: number, column: number, line: number): [number, number] =>
    axis === "row" ? [line, column] : [row, line];
  remapCells(state, sheet, (row, column) => {
    const line = along(row, column);
    if (count > 0) return place(row, column, line >= at ? line + count : line);
    if (line >= at && line < at - count) return undefined;
    return place(row, column, line >= at ? line + count : line);
  });
  for (const [formulaSheet, rows] of state.sheets) {
    for (const cells of rows.values()) {
      for (const cell of cells.values()) {
        if (cell.formula !== undefined) {
          cell.formula = adjustReferences(cell.formula, formulaSheet, edit);
        }
      }
    }
  }
  moveNames(state, sheet, axis, at, count);
}

/**
 * Excel refuses an insert that would push a cell holding something past the sheet's last row or
 * column ("To prevent possible loss of data, Excel cannot shift nonblank cells off of the
 * worksheet."); Office.js fails it with `InsertDeleteConflict`.
 */
function refuseShiftOffSheet(state: WorkbookState, { sheet, axis, count }: LineEdit): void {
  const last = axis === "row" ? LAST_ROW : LAST_COLUMN;
  for (const [row, cells] of state.sheets.get(sheet) ?? []) {
    for (const [column, cell] of cells) {
      const line = axis === "row" ? row : column;
      if (line + count <= last) continue;
      if (cell.value === "" && cell.formula === undefined) continue;
      throw new MockOfficeError(
        "InsertDeleteConflict",
        "To prevent possible loss of data, Excel cannot shift nonblank cells off of the worksheet."
      );
    }
  }
}

/**
 * Empties what the spills anchored on `sheet` show beside their anchors and forgets them; the
 * anchors keep their formulas (the formula engine spills them again).
 */
export function clearSpills(state: WorkbookState, sheet: string): void {
  const prefix = `${sheet}!`;
  for (const [anchor, block] of state.spills) {
    if (!anchor.startsWith(prefix)) continue;
    state.spills.delete(anchor);
    const rows = state.sheets.get(sheet);
    for (let r = 0; r < block.rowCount; r++) {
      for (let c = 0; c < block.columnCount; c++) {
        if (r === 0 && c === 0) continue;
        const cell = rows?.get(block.top + r)?.get(block.left + c);
        if (cell && cell.formula === undefined) cell.value = "";
      }
    }
  }
}

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

/**
 * Moves every cell of a sheet by `move` (undefined drops it); the sheet's spills are emptied
 * first (see `clearSpills`), since a spilled value never moves on its own.
 */
export function remapCells(
  state: WorkbookState,
  sheet: string,
  move: (row: number, column: number) => [number, number] | undefined
): void {
  const before = state.sheets.get(sheet);
  if (!before) throw new Error(`No sheet named ${sheet}`);
  clearSpills(state, sheet);
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

/**
 * Sorts the rows `top`..`top + rowCount - 1` of a sheet as Excel's Sort does over a block that
 * spans every used column: each row moves whole (all its cells), ordered by `key` of its cells.
 */
export function sortRowsOf(
  state: WorkbookState,
  sheet: string,
  top: number,
  rowCount: number,
  key: (cells: MockCellValue[]) => string | number
): void {
  const rows = state.sheets.get(sheet) ?? new Map<number, Map<number, MockCell>>();
  // A loop, not a spread: a whole sheet's columns overflow the call stack as arguments.
  let width = 1;
  for (const cells of rows.values())
    for (const column of cells.keys()) width = Math.max(width, column + 1);
  const order = Array.from({ length: rowCount }, (_, i) => top + i)
    .map((row) => ({
      row,
      key: key(Array.from({ length: width }, (_, c) => rows.get(row)?.get(c)?.value ?? "")),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.row - b.row));
  const destination = new Map(order.map(({ row }, i) => [row, top + i]));
  remapCells(state, sheet, (row, column) => [destination.get(row) ?? row, column]);
}
