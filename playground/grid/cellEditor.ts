/**
 * The grid's cell editor (jspreadsheet's field inside the cell being edited), as the formula bar
 * uses it: the bar edits the active cell through it, so what is typed in the bar shows in the
 * cell as it is typed, and Enter, Tab and Esc end the edit as they do in the cell (a changed text
 * is written into the model as one undoable edit; the same text writes nothing).
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";
import { setEntryMode } from "./entryMode.js";

/** The field a cell is edited in. */
export type CellField = HTMLInputElement | HTMLTextAreaElement;

/** What this needs of a jspreadsheet worksheet. */
interface EditingWorksheet {
  edition?: [HTMLElement, ...unknown[]] | null;
  openEditor(cell: HTMLElement, empty: boolean): void;
  closeEditor(cell: HTMLElement, save: boolean): void;
}

function current(): EditingWorksheet | null {
  return (jspreadsheet as unknown as { current: EditingWorksheet | null }).current;
}

/** The cell being edited and its field, or null when no cell is edited. */
function edited(): { cell: HTMLElement; field: CellField } | null {
  const cell = current()?.edition?.[0];
  const field = cell?.querySelector<CellField>("input, textarea");
  return cell && field ? { cell, field } : null;
}

/**
 * The field of the cell being edited, or null when no cell is edited.
 *
 * @example
 * ```ts
 * cellField()?.value; // what is being typed in the cell
 * ```
 */
export function cellField(): CellField | null {
  return edited()?.field ?? null;
}

/**
 * Edits `cell` of `worksheet` holding its input (its formula, else its value), unless a cell is
 * already edited, and keeps the edit open while the keyboard is elsewhere (the formula bar): the
 * field, left, would end the edit.
 *
 * @example
 * ```ts
 * const field = editCell(worksheet, worksheet.getCellFromCoords(2, 1));
 * field.value = "=1+1"; // shown in the cell
 * ```
 * @returns The field the cell is edited in.
 */
export function editCell(worksheet: WorksheetInstance, cell: HTMLElement): CellField | null {
  const open = edited();
  if (!open) {
    // Back in the cell, its arrow keys move the insertion point, as in Excel's Edit mode.
    setEntryMode("Edit");
    // The keys and the clicks that end an edit are the current worksheet's.
    (jspreadsheet as unknown as { current: unknown }).current = worksheet;
    (worksheet as unknown as EditingWorksheet).openEditor(cell, false);
  }
  const field = cellField();
  if (field) field.onblur = null;
  return field;
}

/**
 * Gives an edit back to its cell (a click into the cell being edited): leaving its field ends it
 * again, as the grid's own edits do.
 *
 * @example
 * ```ts
 * editInCell();
 * ```
 */
export function editInCell(): void {
  const open = edited();
  const worksheet = current();
  if (!open || !worksheet) return;
  open.field.onblur = () => worksheet.edition && worksheet.closeEditor(open.cell, true);
  open.field.focus({ preventScroll: true });
}

/**
 * Ends the edit of a cell, if one is edited: `save` writes `text` (else what the field holds)
 * into the cell, as Enter does; otherwise the cell keeps what it held, as Esc does.
 *
 * @example
 * ```ts
 * endCellEdit(true, "=1+1");
 * ```
 * @returns Whether a cell was edited.
 */
export function endCellEdit(save: boolean, text?: string): boolean {
  const open = edited();
  const worksheet = current();
  if (!open || !worksheet) return false;
  if (text !== undefined) open.field.value = text;
  open.field.onblur = null;
  worksheet.closeEditor(open.cell, save);
  return true;
}
