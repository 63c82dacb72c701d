/**
 * Undo and redo of a person's edits in the grid, kept in the model's cells (sheet, row, column)
 * rather than in the grid's: the grid holds a block of the sheet that moves with the view, so
 * jspreadsheet's own history (in the block's coordinates) could not outlive a move; this one
 * does, as Excel's undo takes back edits wherever they are.
 */
import type { MockWorkbook } from "../excel/mockWorkbook.js";
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
    const cells = changes.map((change) => {
      const row = Number(change.y);
      const column = Number(change.x);
      return {
        row,
        column,
        before: inputAt(this.workbook, sheet, row, column),
        after: String(change.value ?? ""),
      };
    });
    typedIntoModel(this.workbook, sheet, changes);
    if (cells.every((cell) => cell.before === cell.after)) return;
    this.done.push({ sheet, cells });
    if (this.done.length > LIMIT) this.done.shift();
    this.undone.length = 0;
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
