/**
 * Structural edits that can be taken back, as Excel's Undo takes back an insert, a delete or a
 * sort: Microsoft's "Undo, redo, or repeat an action" says "You can undo, redo, or repeat many
 * actions in Microsoft Excel", and inserting, deleting and sorting are among them; the cells, the
 * formulas' references and the names go back to where they were.
 *
 * A change keeps the model's own cell objects, and an undo moves them back rather than writing
 * copies: what a formula's run writes later (keyed by its cell) still lands in its own row.
 */
import { LAST_COLUMN, LAST_ROW } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { MockOfficeError } from "./MockOfficeError.js";
import type { MockCell } from "./mockWorkbookTypes.js";
import { editLines, remapCells } from "./structuralEdits.js";
import type { LineEdit } from "./structuralEdits.js";
import type { WorkbookState } from "./workbookState.js";

/** Rows of a sheet put in a new order, as a sort does. */
export interface RowOrder {
  sheet: string;
  /** `order[i]` is the row (zero-based) that ends up at row `i`: a permutation of 0…length-1. */
  order: readonly number[];
  /** A moved formula as it reads `rows` rows lower (a sort re-bases relative references). */
  rebase?: (formula: string, rows: number) => string;
}

/** A structural edit: rows or columns inserted or deleted (`LineEdit`), or rows sorted. */
export type StructuralEdit = LineEdit | RowOrder;

/**
 * What it takes to take one structural edit back.
 *
 * ## Example
 * ```ts
 * const change = workbook.deleteRows("Sheet1", 3); // formulas below read #REF! or move up
 * workbook.revertStructure(change); // row 4 and every reference to it are back
 * ```
 */
export interface StructuralChange {
  readonly edit: StructuralEdit;
  /** The cells a delete removed, at their places before it (row, column, cell). */
  readonly removed: readonly (readonly [number, number, MockCell])[];
  /** The formulas the edit rewrote: the cell, its formula before and after. */
  readonly formulas: readonly (readonly [MockCell, string, string])[];
  /** Every workbook name and where it referred to before the edit. */
  readonly names: readonly (readonly [string, { sheet: string; block: CellBlock } | undefined])[];
}

/**
 * Makes a structural edit (see `editLines` for inserts and deletes) and keeps what its undo needs.
 *
 * @param state The workbook's state.
 * @param edit The edit.
 * @return The change, for `revertChange`.
 * @throws MockOfficeError `InsertDeleteConflict` for an insert that would push data off the sheet.
 */
export function applyChange(state: WorkbookState, edit: StructuralEdit): StructuralChange {
  const formulasBefore = new Map<MockCell, string>();
  for (const rows of state.sheets.values())
    for (const cells of rows.values())
      for (const cell of cells.values())
        if (cell.formula !== undefined) formulasBefore.set(cell, cell.formula);
  const names = [...state.names].map(([name, target]) => [name, copyTarget(target)] as const);
  const removed: [number, number, MockCell][] = [];
  if ("order" in edit) {
    moveRows(state, edit);
  } else {
    if (edit.count < 0) {
      for (const [row, cells] of state.sheets.get(edit.sheet) ?? []) {
        for (const [column, cell] of cells) {
          const line = edit.axis === "row" ? row : column;
          if (line >= edit.at && line < edit.at - edit.count) removed.push([row, column, cell]);
        }
      }
    }
    editLines(state, edit);
  }
  const formulas: [MockCell, string, string][] = [];
  for (const [cell, before] of formulasBefore) {
    if (cell.formula !== undefined && cell.formula !== before) {
      formulas.push([cell, before, cell.formula]);
    }
  }
  return { edit, removed, formulas, names };
}

/**
 * Takes a structural edit back: the cells move back (the ones a delete removed come back), the
 * formulas it rewrote read as before, the names refer where they did. Checked before anything
 * moves: an undo that would drop or push off the sheet a cell holding data (one written since,
 * by the add-in) is refused, and nothing changes.
 *
 * @param state The workbook's state, as the edit left it (later edits taken back).
 * @param change What `applyChange` gave.
 * @throws MockOfficeError `UndoConflict` when the undo would lose data.
 */
export function revertChange(state: WorkbookState, change: StructuralChange): void {
  const { edit } = change;
  const spilled = spilledCells(state, edit.sheet);
  if ("order" in edit) {
    const { order } = edit;
    remapCells(state, edit.sheet, (row, column) => [row < order.length ? order[row] : row, column]);
  } else {
    const { axis, at, count } = edit;
    const lineOf = (row: number, column: number) => (axis === "row" ? row : column);
    const last = axis === "row" ? LAST_ROW : LAST_COLUMN;
    // An insert's lines go again; a delete's lines come back, pushing what follows them on.
    const dropped = (line: number) =>
      count > 0 ? line >= at && line < at + count : line > last + count;
    for (const [row, cells] of state.sheets.get(edit.sheet) ?? []) {
      for (const [column, cell] of cells) {
        if (!dropped(lineOf(row, column)) || spilled.has(`${row},${column}`)) continue;
        if (cell.value === "" && cell.formula === undefined) continue;
        throw new MockOfficeError(
          "UndoConflict",
          "Excel cannot undo this: cells it would remove hold data written since."
        );
      }
    }
    remapCells(state, edit.sheet, (row, column) => {
      const line = lineOf(row, column);
      if (dropped(line)) return undefined;
      const moved = line >= at ? line - count : line;
      return axis === "row" ? [moved, column] : [row, moved];
    });
    const rows = state.sheets.get(edit.sheet) ?? new Map<number, Map<number, MockCell>>();
    for (const [row, column, cell] of change.removed) {
      let cells = rows.get(row);
      if (!cells) rows.set(row, (cells = new Map()));
      cells.set(column, cell);
    }
  }
  for (const [cell, before, after] of change.formulas) {
    if (cell.formula === after) cell.formula = before;
  }
  for (const [name, target] of change.names) state.names.set(name, copyTarget(target));
}

/** Moves whole rows to a new order, re-basing the moved formulas when asked. */
function moveRows(state: WorkbookState, { sheet, order, rebase }: RowOrder): void {
  const destination = new Map(order.map((from, to) => [from, to]));
  if (rebase) {
    for (const [row, cells] of state.sheets.get(sheet) ?? []) {
      const to = destination.get(row);
      if (to === undefined || to === row) continue;
      for (const cell of cells.values()) {
        if (cell.formula !== undefined) cell.formula = rebase(cell.formula, to - row);
      }
    }
  }
  remapCells(state, sheet, (row, column) => [destination.get(row) ?? row, column]);
}

/** The cells of a sheet a formula spilled into (not the anchors), as "row,column". */
function spilledCells(state: WorkbookState, sheet: string): Set<string> {
  const cells = new Set<string>();
  for (const [anchor, block] of state.spills) {
    if (!anchor.startsWith(`${sheet}!`)) continue;
    for (let r = 0; r < block.rowCount; r++)
      for (let c = 0; c < block.columnCount; c++)
        if (r > 0 || c > 0) cells.add(`${block.top + r},${block.left + c}`);
  }
  return cells;
}

function copyTarget(
  target: { sheet: string; block: CellBlock } | undefined
): { sheet: string; block: CellBlock } | undefined {
  return target && { sheet: target.sheet, block: { ...target.block } };
}
