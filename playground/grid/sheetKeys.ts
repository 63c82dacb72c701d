/**
 * Excel's keys for moving over a whole sheet, on the model's data rather than the grid's block:
 * Ctrl+arrows (the data region's edge, else the sheet's edge), Ctrl+Home (A1), Ctrl+End (the last
 * used row and column), with Shift to extend the selection; Ctrl+G and F5 open the Go To dialog;
 * Ctrl+Z and Ctrl+Y (Ctrl+Shift+Z) undo and redo on the model's history; Delete clears the
 * selection, Backspace the active cell (which it edits); PageDown and PageUp turn a screen (pageKeys);
 * an arrow, Enter or Tab that leaves the block the grid holds moves the block with it; Enter and
 * Tab move within a selected range (stepInSelection), F2 and typing edit its active cell; a cell
 * edit follows Excel's Enter and Edit modes (entryMode); Ctrl+Space, Shift+Space and Ctrl+A select
 * parts of the sheet (selectionKeys); Shift+Click extends from the anchor (shiftClick). Keys the
 * block can answer itself are left to jspreadsheet.
 */
import jspreadsheet from "jspreadsheet-ce";
import { LAST_COLUMN, LAST_ROW, type CellBlock } from "../excel/a1.js";
import { ctrlArrowTarget, lastUsedCell, type Direction } from "../excel/dataRegionEdge.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import type { GridWorkbook } from "./gridWorkbook.js";
import { activeCellElement } from "./activeCell.js";
import { selectionBlock, selectionHolds, type ModelSelection } from "./gridSelection.js";
import type { SheetBlock } from "./sheetBlock.js";
import { turnPage } from "./pageKeys.js";
import { selectsPartOfSheet } from "./selectionKeys.js";
import { shiftClickExtends } from "./shiftClick.js";
import { cellField } from "./cellEditor.js";
import { stepInSelection } from "./stepInSelection.js";
import { entryMode, pointsAtCell, setEntryMode } from "./entryMode.js";
import { focusGrid, startEditing } from "./typedText.js";

const ARROWS: Record<string, Direction> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
};
const STEPS: Record<Direction, { row: number; column: number }> = {
  up: { row: -1, column: 0 },
  down: { row: 1, column: 0 },
  left: { row: 0, column: -1 },
  right: { row: 0, column: 1 },
};

/**
 * Listens to the keyboard for the grid's sheet-wide moves.
 *
 * @example
 * ```ts
 * const stop = listenToSheetKeys(grid, workbook, () => goToDialog.open());
 * ```
 * @param grid The grid.
 * @param workbook The model (its data decides where Ctrl+arrows go).
 * @param openGoTo Called on Ctrl+G or F5: Excel's Go To dialog opens.
 * @returns A function that stops listening.
 */
export function listenToSheetKeys(
  grid: GridWorkbook,
  workbook: MockWorkbook,
  openGoTo: () => void
): () => void {
  const keydown = (event: KeyboardEvent) => {
    const current = (
      jspreadsheet as unknown as {
        current: { edition?: unknown; selectedHeader?: unknown; selectedRow?: unknown } | null;
      }
    ).current;
    if (!current || typingElsewhere(event.target)) return;
    const control = event.ctrlKey || event.metaKey;
    if (control && event.key.toLowerCase() === "g" && !event.shiftKey) {
      event.preventDefault();
      event.stopPropagation();
      openGoTo();
      return;
    }
    if (event.key === "F5") {
      event.preventDefault();
      event.stopPropagation();
      openGoTo();
      return;
    }
    if (!control && !event.altKey && stepsInSelection(event, grid, current)) return;
    if (current.edition && !control && !event.altKey && endsOrSwitchesEntry(event, grid, current))
      return;
    if (current.edition || event.altKey) return;
    if (selectsPartOfSheet(event, grid, workbook)) return;
    // Typing into a cell starts Enter mode, F2 Edit mode (entryMode).
    if (event.key === "F2") setEntryMode("Edit");
    else if (!control && (event.key.length === 1 || event.key === "Backspace")) {
      setEntryMode("Enter");
    }
    if (!control && editsMovedActiveCell(event, grid)) return;
    // Excel's Backspace "clears the content of the active cell" and edits it (Microsoft,
    // "Keyboard shortcuts in Excel"): the other selected cells keep theirs; Enter writes the
    // emptied cell (one undoable edit), Escape leaves it as it was.
    if (event.key === "Backspace" && !control) {
      event.preventDefault();
      event.stopPropagation();
      startEditing("");
      return;
    }
    // Delete "removes the cell contents (data and formulas) from selected cells": in the model, a
    // whole row or column all of it; the grid's own key would offer to delete the rows or
    // columns of a header's selection (Excel never does).
    if (event.key === "Delete" && !control) {
      event.preventDefault();
      event.stopPropagation();
      const sheet = grid.activeSheet();
      grid.erase(sheet, erasedBlock(grid.blockOf(sheet), grid.selectionOf(sheet), current));
      return;
    }
    // Undo and redo are the model's (the grid's own history could not outlive a block move).
    const key = event.key.toLowerCase();
    if (control && (key === "z" || key === "y")) {
      event.preventDefault();
      event.stopPropagation();
      if (key === "y" || event.shiftKey) grid.redo();
      else grid.undo();
      return;
    }
    const sheet = grid.activeSheet();
    const selection = grid.selectionOf(sheet);
    // Shift+arrows, Shift+PageDown and Shift+PageUp ("extend the selection down one screen",
    // "up one screen") move the selection's far end; the other keys move from the active cell.
    const paging = event.key === "PageDown" || event.key === "PageUp";
    const extend = event.shiftKey && (control || paging || event.key.startsWith("Arrow"));
    const from = extend ? selection.end : selection.anchor;
    const target = targetOf(event, control, workbook, sheet, from);
    if (!target) return;
    // PageDown and PageUp move the active cell a screen, as Excel's do (the grid's only scroll).
    // Keys that stay in the block are jspreadsheet's (its selection, its scrolling).
    if (!control && !paging && grid.blockOf(sheet).holds(target.row, target.column)) return;
    event.preventDefault();
    event.stopPropagation();
    // The view turned a page: its rows are put in the page before the active cell moves there.
    if (paging) grid.showRowsInView();
    const { active } = selection;
    grid.select(sheet, {
      anchor: extend ? selection.anchor : target,
      end: target,
      // Extending keeps the active cell while the range holds it.
      ...(extend && active && selectionHolds({ anchor: selection.anchor, end: target }, active)
        ? { active }
        : {}),
    });
  };
  // A double-click on a cell edits it in Edit mode; Shift (a key) with a click extends.
  const doubleClick = () => setEntryMode("Edit");
  const mouseDown = (event: MouseEvent) => {
    if (!cellField()) shiftClickExtends(event, grid);
  };
  window.addEventListener("keydown", keydown, true);
  window.addEventListener("dblclick", doubleClick, true);
  window.addEventListener("mousedown", mouseDown, true);
  return () => {
    window.removeEventListener("keydown", keydown, true);
    window.removeEventListener("dblclick", doubleClick, true);
    window.removeEventListener("mousedown", mouseDown, true);
  };
}

/**
 * A key while a cell is edited: F2 switches between Enter and Edit mode; in Enter mode an arrow
 * key writes the entry and moves the active cell, as Excel's does (in Edit mode it moves the
 * insertion point, the field's own answer).
 *
 * @returns Whether the key was this (and handled).
 */
function endsOrSwitchesEntry(
  event: KeyboardEvent,
  grid: GridWorkbook,
  current: { edition?: unknown }
): boolean {
  if (event.key === "F2") {
    event.preventDefault();
    event.stopPropagation();
    setEntryMode(entryMode() === "Enter" ? "Edit" : "Enter");
    return true;
  }
  const direction = ARROWS[event.key];
  // Point mode (pointMode.ts) took the arrow first: it moves the pointed reference instead.
  if (!direction || event.shiftKey || entryMode() !== "Enter" || event.defaultPrevented) {
    return false;
  }
  const cell = (current.edition as HTMLElement[] | undefined)?.[0];
  const field = cell?.querySelector<HTMLInputElement | HTMLTextAreaElement>("input, textarea");
  if (!cell || !field) return false;
  if (pointsAtCell(field.value, field.selectionStart ?? field.value.length)) return false;
  event.preventDefault();
  event.stopPropagation();
  (current as unknown as { closeEditor(cell: HTMLElement, save: boolean): void }).closeEditor(
    cell,
    true
  );
  focusGrid(); // the editor left the page with the keyboard
  const sheet = grid.activeSheet();
  const selection = grid.selectionOf(sheet);
  const from = selection.active ?? selection.anchor;
  const step = STEPS[direction];
  const target = {
    row: Math.max(0, Math.min(LAST_ROW, from.row + step.row)),
    column: Math.max(0, Math.min(LAST_COLUMN, from.column + step.column)),
  };
  grid.select(sheet, { anchor: target, end: target });
  return true;
}

/**
 * Enter or Tab in a selection of more than one cell: the active cell moves within it, the range
 * staying selected (an edit of the active cell is written first), as Excel's do.
 *
 * @returns Whether the key was this (and handled).
 */
function stepsInSelection(
  event: KeyboardEvent,
  grid: GridWorkbook,
  current: { edition?: unknown }
): boolean {
  if (event.key !== "Enter" && event.key !== "Tab") return false;
  const sheet = grid.activeSheet();
  const selection = grid.selectionOf(sheet);
  const range = selectionBlock(selection);
  if (range.rowCount * range.columnCount < 2) return false;
  event.preventDefault();
  event.stopPropagation();
  const editor = (current.edition as HTMLElement[] | undefined)?.[0];
  if (editor) {
    (current as unknown as { closeEditor(cell: HTMLElement, save: boolean): void }).closeEditor(
      editor,
      true
    );
    focusGrid(); // the editor left the page with the keyboard
  }
  const step =
    event.key === "Enter" ? (event.shiftKey ? "up" : "down") : event.shiftKey ? "left" : "right";
  const active = stepInSelection(range, selection.active ?? selection.anchor, step);
  grid.select(sheet, { ...selection, active });
  return true;
}

/**
 * F2 or a typed character after Enter or Tab moved the active cell within a range: the active
 * cell is edited (jspreadsheet would edit its selection's first corner), the range staying selected.
 *
 * @returns Whether the key was this (and handled).
 */
function editsMovedActiveCell(event: KeyboardEvent, grid: GridWorkbook): boolean {
  const sheet = grid.activeSheet();
  if (!grid.selectionOf(sheet).active) return false;
  if (event.key !== "F2" && (event.key.length !== 1 || event.isComposing)) return false;
  const worksheet = grid.worksheet(sheet);
  const cell = activeCellElement(worksheet);
  if (!cell) return false;
  event.stopPropagation();
  // A character goes on into the editor, which takes the keyboard as it opens (as jspreadsheet's
  // own start of an edit does); F2 edits what the cell holds.
  if (event.key === "F2") event.preventDefault();
  (worksheet as unknown as { openEditor(cell: HTMLElement, empty: boolean): void }).openEditor(
    cell,
    event.key !== "F2"
  );
  return true;
}

/**
 * The cells Delete clears: the selection, over every row of the sheet when a column header chose
 * it, over every column when a row header did (the grid holds only a block of the sheet).
 */
function erasedBlock(
  block: SheetBlock,
  selection: ModelSelection,
  worksheet: { selectedHeader?: unknown; selectedRow?: unknown }
): CellBlock {
  const cells = selectionBlock(selection);
  // A header click leaves its index (a number or its text, "0" for A or 1) in these; other
  // clicks leave null or false there.
  const isIndex = (value: unknown) =>
    typeof value === "number" || (typeof value === "string" && value !== "");
  const wholeColumns =
    isIndex(worksheet.selectedHeader) &&
    cells.top === block.row &&
    cells.rowCount >= block.rowCount();
  const wholeRows =
    isIndex(worksheet.selectedRow) &&
    cells.left === block.column &&
    cells.columnCount >= block.columnCount();
  return {
    top: wholeColumns ? 0 : cells.top,
    rowCount: wholeColumns ? LAST_ROW + 1 : cells.rowCount,
    left: wholeRows ? 0 : cells.left,
    columnCount: wholeRows ? LAST_COLUMN + 1 : cells.columnCount,
  };
}

/** Where a key moves the selection's active end, or undefined for a key this does not handle. */
function targetOf(
  event: KeyboardEvent,
  control: boolean,
  workbook: MockWorkbook,
  sheet: string,
  from: { row: number; column: number }
): { row: number; column: number } | undefined {
  const direction = ARROWS[event.key];
  if (direction && control) return ctrlArrowTarget(workbook, sheet, from, direction);
  if (event.key === "Home" && control) return { row: 0, column: 0 };
  if (event.key === "End" && control) return lastUsedCell(workbook, sheet);
  if (control) return undefined;
  const moved =
    direction ??
    (event.key === "Enter"
      ? event.shiftKey
        ? "up"
        : "down"
      : event.key === "Tab"
        ? event.shiftKey
          ? "left"
          : "right"
        : undefined);
  if (event.key === "PageDown" || event.key === "PageUp") {
    // The view turns a page first; the active cell moves as many rows (keeping its place).
    const rows = pageTurned(event.key === "PageDown" ? 1 : -1);
    return { row: Math.max(0, Math.min(LAST_ROW, from.row + rows)), column: from.column };
  }
  if (!moved) return undefined;
  const step = STEPS[moved];
  return {
    row: Math.max(0, Math.min(LAST_ROW, from.row + step.row)),
    column: Math.max(0, Math.min(LAST_COLUMN, from.column + step.column)),
  };
}

/**
 * Scrolls the shown sheet's view a screen down (1) or up (-1), as Excel's PageDown and PageUp
 * do, and returns the rows the active cell moves by (signed).
 */
function pageTurned(direction: 1 | -1): number {
  const current = (jspreadsheet as unknown as { current: { table?: HTMLElement } | null }).current;
  const scroller = document.querySelector<HTMLElement>(".playground-sheet");
  if (!current?.table || !scroller) return direction * 20;
  return direction * turnPage(current.table, scroller, direction);
}

/** Whether a key goes to a field outside the grid (the task pane, the Name Box). */
function typingElsewhere(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest(".jss_worksheet, .jss_textarea") || target.classList.contains("jss_textarea"))
    return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}
