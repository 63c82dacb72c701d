/**
 * Undo and redo of a person's edits in the grid, kept in the model's cells (sheet, row, column)
 * rather than in the grid's: the grid holds a block of the sheet that moves with the view, so
 * jspreadsheet's own history (in the block's coordinates) could not outlive a move; this one
 * does, as Excel's undo takes back edits wherever they are.
 *
 * Inserted and deleted rows and columns and sorts are edits of the history too, as in Excel
 * (Microsoft's "Undo, redo, or repeat an action": "You can undo, redo, or repeat many actions in
 * Microsoft Excel"; inserting, deleting and sorting are undone and redone): the model moves its
 * cells back, and the formulas' references and the names with them (`revertStructure`).
 */
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { MockOfficeError } from "../excel/MockOfficeError.js";
import { columnName } from "../../taskpane/sheet/a1Address.js";
import type { CellBlock } from "../excel/a1.js";
import type { StructuralChange, StructuralEdit } from "../excel/structuralChange.js";
import { inputAt, typedIntoModel } from "./gridEdits.js";

/** One cell of an edit: its input before and after (a formula, else the value as text). */
export interface EditedCell {
  row: number;
  column: number;
  before: string;
  after: string;
}

/** An edit of cells (a typed cell, a paste, a fill, a Delete): its sheet and its cells. */
export interface CellsEdit {
  kind: "cells";
  sheet: string;
  cells: EditedCell[];
}

/**
 * Rows or columns inserted or deleted, or a sort, as one edit: the model's structural edits in
 * order (`edits`, made again by a redo) and their changes (`changes`, taken back by an undo).
 */
export interface StructureEdit {
  kind: "structure";
  sheet: string;
  edits: StructuralEdit[];
  changes: StructuralChange[];
  /** The cells an undo or a redo selects (the lines' first cells, the sorted rows). */
  cells: { row: number; column: number }[];
}

/** One edit of a person. */
export type ModelEdit = CellsEdit | StructureEdit;

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
  /** Why the model last refused a structural edit or its undo. */
  private refusal = new MockOfficeError("InvalidOperation", "");

  /**
   * @param workbook The model the edits are made to.
   * @param refused Told why, when the model refused to undo or redo a structural edit.
   */
  constructor(
    private readonly workbook: MockWorkbook,
    private readonly refused: (message: string) => void = () => undefined
  ) {}

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
    this.remember({ kind: "cells", sheet, cells });
  }

  /**
   * A person inserted or deleted rows or columns, or sorted: the model makes the edits in order,
   * and they are remembered as one edit.
   *
   * @throws MockOfficeError when the model refuses one (an insert pushing data off the sheet);
   *   the edits made before it are taken back first.
   */
  structure(sheet: string, edits: StructuralEdit[]): void {
    if (edits.length === 0) return;
    const changes = this.apply(edits);
    if (!changes) throw this.refusal;
    this.remember({ kind: "structure", sheet, edits, changes, cells: selectedBy(edits) });
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

  /**
   * Takes back the last edit; returns it (undefined when there is none, or when the model refused
   * to take back a structural edit: then the history is forgotten, since the edits before it name
   * cells that did not move back).
   */
  undo(): ModelEdit | undefined {
    const edit = this.done.pop();
    if (!edit) return undefined;
    if (edit.kind === "cells") this.write(edit, "before");
    else if (!this.revert(edit.changes)) return this.refuse();
    this.undone.push(edit);
    return edit;
  }

  /** Makes again the last edit taken back; returns it (undefined when there is none, as `undo`). */
  redo(): ModelEdit | undefined {
    const edit = this.undone.pop();
    if (!edit) return undefined;
    if (edit.kind === "cells") {
      this.write(edit, "after");
    } else {
      const changes = this.apply(edit.edits);
      if (!changes) return this.refuse();
      edit.changes = changes;
    }
    this.done.push(edit);
    return edit;
  }

  /** Forgets every edit. */
  clear(): undefined {
    this.done.length = 0;
    this.undone.length = 0;
    return undefined;
  }

  /** The model refused to undo or redo: the history is forgotten, and the person told why. */
  private refuse(): undefined {
    this.refused(this.refusal.message);
    return this.clear();
  }

  private remember(edit: ModelEdit): void {
    this.done.push(edit);
    if (this.done.length > LIMIT) this.done.shift();
    this.undone.length = 0;
  }

  /** Makes structural edits in order; undefined (none made) when the model refused one. */
  private apply(edits: readonly StructuralEdit[]): StructuralChange[] | undefined {
    const changes: StructuralChange[] = [];
    try {
      for (const edit of edits) changes.push(this.workbook.changeStructure(edit));
      return changes;
    } catch (error) {
      if (!(error instanceof MockOfficeError)) throw error;
      this.refusal = error;
      this.revert(changes);
      return undefined;
    }
  }

  /** Takes structural changes back, last first; false (none taken back) when the model refused. */
  private revert(changes: readonly StructuralChange[]): boolean {
    const reverted: StructuralChange[] = [];
    try {
      for (const change of [...changes].reverse()) {
        this.workbook.revertStructure(change);
        reverted.push(change);
      }
      return true;
    } catch (error) {
      if (!(error instanceof MockOfficeError)) throw error;
      this.refusal = error;
      // The ones taken back are made again, so the model is as it was.
      for (const change of reverted.reverse()) this.workbook.changeStructure(change.edit);
      return false;
    }
  }

  private write(edit: CellsEdit, which: "before" | "after"): void {
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

/**
 * The cells a structural edit's undo or redo selects: the first cells of its lines, the rows a
 * sort moved (A1 when it moved none).
 */
function selectedBy(edits: readonly StructuralEdit[]): { row: number; column: number }[] {
  const cells = edits.flatMap((edit) => {
    if ("order" in edit) {
      const moved = edit.order.flatMap((from, to) => (from === to ? [] : [to]));
      // The first and the last only (a spread of a long sort's rows would overflow the stack).
      return moved
        .slice(0, 1)
        .concat(moved.slice(-1))
        .map((row) => ({ row, column: 0 }));
    }
    const lines = edit.count > 0 ? [edit.at, edit.at + edit.count - 1] : [edit.at];
    return lines.map((line) =>
      edit.axis === "row" ? { row: line, column: 0 } : { row: 0, column: line }
    );
  });
  return cells.length > 0 ? cells : [{ row: 0, column: 0 }];
}
