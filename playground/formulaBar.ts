/**
 * Excel's formula bar as a place to edit the active cell ("Edit mode": Microsoft, "Change the
 * Edit mode in Excel": "edit cell contents by clicking in the formula bar"). A click in the bar
 * edits the active cell there, its formula (not its value) shown, the caret where clicked; what
 * is typed shows in the cell as it is typed. Enter ends the edit and moves down, Tab moves right
 * (Shift the other way), as in the cell; the Enter button (✓) ends it and stays, Esc and the
 * Cancel button (✗) leave the cell as it was. The edit is the cell's own (the grid's cell
 * editor), so it is one undoable edit of the model, and a text left the same writes nothing.
 * The bar is a text area: it holds a cell's line breaks, and Alt+Enter starts a new line in it
 * ("Keyboard shortcuts in Excel": Alt+Enter "Start a new line in the same cell"); one line tall,
 * it shows five once expanded (Ctrl+Shift+U "Expand or collapse the formula bar", or its button).
 * While the text is a formula and the caret follows an operator, "(" or ",", a click or a drag
 * on cells puts their reference at the caret (Excel's Point mode, `pointMode.ts`, in the bar as in
 * the cell); any other click on a cell ends the edit and selects that cell.
 */
import { LAST_COLUMN, LAST_ROW } from "./excel/a1.js";
import type { GridWorkbook } from "./grid/gridWorkbook.js";
import { cellField, editCell, editInCell, endCellEdit } from "./grid/cellEditor.js";
import { fitEditorToLines } from "./grid/editorLines.js";
import { endEntry, insertLineBreak } from "./grid/entryKeys.js";
import { fillsSelection } from "./grid/selectionFill.js";
import { offerPointMode } from "./pointMode.js";

/** The formula bar's parts. */
export interface FormulaBarParts {
  /** The text box of the bar (a text area: an input would drop a cell's line breaks). */
  field: HTMLTextAreaElement;
  /** Excel's Enter button (✓): ends the edit, the active cell stays. */
  enter?: HTMLButtonElement | null;
  /** Excel's Cancel button (✗): leaves the cell as it was. */
  cancel?: HTMLButtonElement | null;
  /** Excel's Expand Formula Bar button (Ctrl+Shift+U): the bar shows five lines, or one again. */
  expand?: HTMLButtonElement | null;
  /**
   * What an edit of the model's cell (row, column) starts from when it is not what the grid's
   * editor holds (a cell a formula spilled into holds no input: ""); undefined otherwise.
   */
  ownInput?: (sheet: string, row: number, column: number) => string | undefined;
}

/**
 * Lets a person edit the active cell in the formula bar.
 *
 * @example
 * ```ts
 * offerFormulaBar({ field: document.querySelector("#formula-content")! }, grid, focusGrid, show);
 * ```
 * @param parts The bar's text box and buttons.
 * @param grid The grid (its active cell is edited; Enter and Tab move its selection).
 * @param backToGrid Gives the keyboard back to the grid once the edit ended, as in Excel.
 * @param restore Shows the active cell's input in the bar again (once an edit ended).
 * @returns Whether the bar is editing a cell now (the page then leaves the bar's text alone).
 */
export function offerFormulaBar(
  { field, enter, cancel, expand, ownInput }: FormulaBarParts,
  grid: GridWorkbook,
  backToGrid: () => void,
  restore: () => void
): { editing(): boolean } {
  field.spellcheck = false;
  let editing = false;
  // The cell's editor takes the keyboard as it opens: the bar's blur then is no end of the edit.
  let opening = false;
  let pointerAt: EventTarget | null = null;
  // The cell's text when the bar opened its edit: left the same, the edit writes nothing (null
  // for an edit begun in the cell, whose typing the bar carries on).
  let started: string | null = null;

  const begin = () => {
    if (editing) return;
    const sheet = grid.activeSheet();
    // The active cell (Enter or Tab may have moved it within a selected range).
    const selection = grid.selectionOf(sheet);
    const anchor = selection.active ?? selection.anchor;
    if (!grid.blockOf(sheet).holds(anchor.row, anchor.column)) {
      grid.select(sheet, { anchor, end: anchor });
    }
    const block = grid.blockOf(sheet);
    const worksheet = grid.worksheet(sheet);
    const cell = worksheet.getCellFromCoords(
      anchor.column - block.column,
      anchor.row - block.row
    ) as HTMLElement | null;
    if (!cell) return;
    editing = true;
    opening = true;
    const carried = cellField() !== null;
    const edit = editCell(worksheet, cell);
    const own = carried ? undefined : ownInput?.(sheet, anchor.row, anchor.column);
    if (edit && own !== undefined) edit.value = own;
    started = carried ? null : (edit?.value ?? null);
    if (edit && edit.value !== field.value) field.value = edit.value;
    if (edit) fitEditorToLines(edit);
    if (document.activeElement !== field) field.focus({ preventScroll: true });
    opening = false;
  };
  const stay = (fill: boolean) => {
    const text = field.value;
    editing = false;
    if (text === started && !(fill && fillsSelection(grid))) endCellEdit(false);
    else endEntry(grid, text, fill);
    backToGrid();
    restore();
  };
  const end = (save: boolean, move?: { row: number; column: number }) => {
    const text = field.value;
    editing = false;
    endCellEdit(save && text !== started, save ? text : undefined);
    backToGrid();
    restore();
    if (move) {
      const sheet = grid.activeSheet();
      const { anchor } = grid.selectionOf(sheet);
      const to = {
        row: Math.max(0, Math.min(LAST_ROW, anchor.row + move.row)),
        column: Math.max(0, Math.min(LAST_COLUMN, anchor.column + move.column)),
      };
      grid.select(sheet, { anchor: to, end: to });
    }
  };

  // The grid's clicks are not the bar's: jspreadsheet (on the document) ends an edit and the
  // grid's selection on a click outside the grid.
  for (const type of ["mousedown", "mouseup", "dblclick", "contextmenu", "paste"]) {
    field.addEventListener(type, (event) => event.stopPropagation());
  }
  // Opened before the click's own default, which then puts the caret where it was clicked.
  field.addEventListener("mousedown", begin);
  field.addEventListener("focus", begin);
  field.addEventListener("input", () => {
    const edit = cellField();
    if (edit) edit.value = field.value;
    if (edit) fitEditorToLines(edit);
  });
  field.addEventListener("keydown", (event) => {
    event.stopPropagation(); // the grid's keys are not the bar's
    if (!editing || event.isComposing) return;
    const back = event.shiftKey ? -1 : 1;
    // Ctrl+Enter (and Ctrl+Shift+Enter) write the entry and stay on the cell, as Excel's do;
    // Ctrl+Enter fills a selection of several cells with it.
    const control = event.ctrlKey || event.metaKey;
    if (event.key === "Enter" && event.altKey && !control) insertLineBreak(field);
    else if (event.key === "Enter" && !event.altKey && control) stay(!event.shiftKey);
    else if (event.key === "Enter" && !event.altKey) end(true, { row: back, column: 0 });
    else if (event.key === "Tab") end(true, { row: 0, column: back });
    else if (event.key === "Escape") end(false);
    else return;
    event.preventDefault();
  });
  field.addEventListener("blur", () => {
    // The window left (another program, another tab): the edit waits, as Excel's does.
    if (!editing || opening || !document.hasFocus()) return;
    editing = false;
    const into = pointerAt instanceof Element ? pointerAt.closest("td.editor") : null;
    // A click into the cell edited goes on with the edit there; any other click ends it, as a
    // click outside the cell ends the grid's own edit (a click on another cell was ended by the
    // grid, which then selected that cell).
    if (into && cellField()) editInCell();
    else endCellEdit(field.value !== started, cellField() ? field.value : undefined);
    restore();
  });

  for (const button of [enter, cancel, expand]) {
    button?.addEventListener("mousedown", (event) => {
      event.preventDefault(); // the edit keeps the keyboard until the click ends it
      event.stopPropagation();
    });
  }
  offerExpandedBar(field, expand);
  for (const [button, save] of [
    [enter, true],
    [cancel, false],
  ] as const) {
    if (!button) continue;
    button.addEventListener("click", () => {
      if (editing) end(save);
      else if (cellField()) {
        endCellEdit(save);
        backToGrid();
        restore();
      }
    });
  }

  // Where a click went: a click into the cell edited goes on with the edit there (see blur).
  document.addEventListener("mousedown", (event) => (pointerAt = event.target), true);
  // Point mode: in the bar while it edits, else in the cell's own editor.
  offerPointMode({
    editing: () => (editing ? field : cellField()),
    changed: (changedField) => {
      if (changedField === field) {
        const edit = cellField();
        if (edit) edit.value = field.value;
      } else {
        // The page's bar mirrors the cell's editor on its input events.
        changedField.dispatchEvent(new Event("input", { bubbles: true }));
      }
    },
  });
  return { editing: () => editing };
}

/** Ctrl+Shift+U (anywhere but the task pane) and the bar's button expand or collapse the bar. */
function offerExpandedBar(field: HTMLTextAreaElement, button?: HTMLButtonElement | null): void {
  const toggle = () => {
    const expanded = field.classList.toggle("formula-expanded");
    field.wrap = expanded ? "soft" : "off"; // expanded, long lines wrap, as in Excel's bar
    button?.setAttribute("aria-expanded", String(expanded));
    button?.setAttribute("aria-label", expanded ? "Collapse Formula Bar" : "Expand Formula Bar");
    if (button) button.textContent = expanded ? "⌃" : "⌄";
  };
  button?.addEventListener("click", toggle);
  window.addEventListener(
    "keydown",
    (event) => {
      const control = event.ctrlKey || event.metaKey;
      if (!control || !event.shiftKey || event.altKey || event.key.toLowerCase() !== "u") return;
      if (event.target instanceof Element && event.target.closest(".playground-pane")) return;
      event.preventDefault();
      event.stopPropagation();
      toggle();
    },
    true
  );
}
