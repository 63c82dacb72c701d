/**
 * Undo and redo of a person's edits in the grid, kept in the model's cells (sheet, row, column)
 * rather than in the grid's: the grid holds a block of the sheet that moves with the view, so
 * jspreadsheet's own history (in the block's coordinates) could not outlive a move; this one
 * does, as Excel's undo takes back edits wherever they are.
 */
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { columnName } from "../../taskpane/sheet/a1Address.js";
import type { CellBlock } from "../excel/a1.js";
import { inputAt, typedIntoModel } from "./gridEdits.js";

/** One cell of an edit: its input before and after (a formula, else the value as text). */
export interface EditedCell {
  row: number;
  column: number;
  before: string;
  after: string;
}

/** One edit of a person (a typed cell, a paste, a fill, a Delete): its sheet and its cells. */
export interface ModelEdit {
  sheet: string;
  cells: EditedCell[];
}

/** Edits kept at most (Excel keeps 100 actions). */
const LIMIT = 100;

/**
 * The grid's undo history over the model.
 *
 * @example
 * ```ts
 * const undo = new ModelUndo(workbook);
 * undo.type("Reviews", [{ x: 2, y: 1, value: "=1+1" }]); // written and remembered
 * undo.undo(); // C2 as it was
 * ```
 */
export class ModelUndo {
  private readonly done: ModelEdit[] = [];
  private readonly undone: ModelEdit[] = [];

  /** @param workbook The model the edits are made to. */
  constructor(private readonly workbook: MockWorkbook) {}

  /**
   * A person typed, pasted or filled cells (`x` the model's column, `y` its row): the model takes
   * them, and the edit is remembered with what the cells held before.
   */
  type(
    sheet: string,
    changes: readonly { x: number | string; y: number | string; value: unknown }[]
  ): void {
    const spilled = spilledInto(this.workbook, sheet);
    // A cell changed twice in one edit keeps its last value (as the model does).
    const byCell = new Map<string, EditedCell>();
    for (const change of changes) {
      const row = Number(change.y);
      const column = Number(change.x);
      const after = String(change.value ?? "");
      const known = byCell.get(`${row},${column}`);
      if (known) {
        known.after = after;
        continue;
      }
      // A cell a formula spilled into held no input: an undo empties it, and the formula spills
      // again (writing the spilled value back would leave a copy of a result and a #SPILL!).
      const before = spilled(row, column) ? "" : inputAt(this.workbook, sheet, row, column);
      byCell.set(`${row},${column}`, { row, column, before, after });
    }
    const cells = [...byCell.values()];
    typedIntoModel(this.workbook, sheet, changes);
    if (cells.every((cell) => cell.before === cell.after)) return;
    this.done.push({ sheet, cells });
    if (this.done.length > LIMIT) this.done.shift();
    this.undone.length = 0;
  }

  /**
   * Delete on a selection: every cell of `block` with an input (a formula, else a value) is
   * emptied, as one edit; cells a formula spilled into hold no input and stay. Sparse: only the
   * model's cells are visited, so a whole column (1,048,576 rows) costs what its data costs.
   */
  erase(sheet: string, block: CellBlock): void {
    const spilled = spilledInto(this.workbook, sheet);
    const changes: { x: number; y: number; value: string }[] = [];
    this.workbook.forEachCell((name, row, column) => {
      const inBlock =
        row >= block.top &&
        row < block.top + block.rowCount &&
        column >= block.left &&
        column < block.left + block.columnCount;
      if (name !== sheet || !inBlock || spilled(row, column)) return;
      if (inputAt(this.workbook, sheet, row, column) !== "")
        changes.push({ x: column, y: row, value: "" });
    });
    this.type(sheet, changes);
  }

  /** Takes back the last edit; returns it (undefined when there is none). */
  undo(): ModelEdit | undefined {
    const edit = this.done.pop();
    if (!edit) return undefined;
    this.write(edit, "before");
    this.undone.push(edit);
    return edit;
  }

  /** Makes again the last edit taken back; returns it (undefined when there is none). */
  redo(): ModelEdit | undefined {
    const edit = this.undone.pop();
    if (!edit) return undefined;
    this.write(edit, "after");
    this.done.push(edit);
    return edit;
  }

  /**
   * Forgets every edit: rows or columns were inserted, deleted or sorted, so the cells the edits
   * name hold other data now (an undo must never write over a cell it did not edit).
   */
  clear(): void {
    this.done.length = 0;
    this.undone.length = 0;
  }

  private write(edit: ModelEdit, which: "before" | "after"): void {
    typedIntoModel(
      this.workbook,
      edit.sheet,
      edit.cells.map((cell) => ({ x: cell.column, y: cell.row, value: cell[which] }))
    );
  }
}

/**
 * Whether a cell of `sheet` is one a formula spilled into (not the formula's own cell): the
 * spill ranges of the sheet's formulas, read once per edit.
 */
function spilledInto(
  workbook: MockWorkbook,
  sheet: string
): (row: number, column: number) => boolean {
  const spills: CellBlock[] = [];
  workbook.forEachCell((name, row, column, cell) => {
    if (name !== sheet || cell.formula === undefined) return;
    const spill = workbook.spillAt(sheet, `${columnName(column)}${row + 1}`);
    if (spill) spills.push(spill);
  });
  return (row, column) =>
    spills.some(
      (spill) =>
        row >= spill.top &&
        row < spill.top + spill.rowCount &&
        column >= spill.left &&
        column < spill.left + spill.columnCount &&
        (row !== spill.top || column !== spill.left)
    );
}
