/**
 * Excel's Point mode while a formula is typed, in the cell or in the formula bar (Microsoft,
 * "Create a simple formula in Excel": after "=" or an operator, "select a cell" to put its
 * reference in). At an insertion point (the caret after "=", an operator, "(" or ","):
 * - a click on a cell puts its reference at the caret; a drag across cells puts a range
 *   ("A2:A10"); Shift+click extends the reference just pointed, a second click replaces it;
 * - in the cell (Excel's Enter mode, the caret at the end), the arrow keys point at cells from
 *   the cell edited, Shift+arrows extend the reference pointed;
 * - F4 cycles the reference at the caret through $A$1, A$1, $A1 and A1 (Microsoft, "Switch
 *   between relative, absolute and mixed references").
 * Pointing changes only the text being typed: the cell is written (and a SPELL.RUN started)
 * once, when the edit ends; nothing runs while pointing.
 */
import { LAST_COLUMN, LAST_ROW, parseAddress } from "./excel/a1.js";
import {
  atInsertionPoint,
  cycleReference,
  pointedReference,
  type CellPosition,
} from "./excel/referenceAtCaret.js";
import { clearPointedCells, markPointedCells } from "./pointedCells.js";
import { entryMode } from "./grid/entryMode.js";

/** A field a formula is typed in. */
export type FormulaField = HTMLInputElement | HTMLTextAreaElement;

/** Where Point mode finds the formula being typed. */
export interface PointModeFields {
  /** The field a cell is being edited in now (the bar's or the cell's own), or null. */
  editing(): FormulaField | null;
  /** Shows the field's new text where the edit also shows (the cell, or the bar). */
  changed(field: FormulaField): void;
}

const STEPS: Record<string, CellPosition> = {
  ArrowUp: { row: -1, column: 0 },
  ArrowDown: { row: 1, column: 0 },
  ArrowLeft: { row: 0, column: -1 },
  ArrowRight: { row: 0, column: 1 },
};

/** The reference last pointed: where it is in the text, and the cells it spans. */
interface Pointed {
  field: FormulaField;
  /** The field's text once pointed (an edit begun since holds another). */
  text: string;
  start: number;
  end: number;
  anchor: CellPosition;
  far: CellPosition;
}

function positionOf(address: string | undefined): CellPosition | null {
  if (!address) return null;
  try {
    const { block } = parseAddress(address);
    return { row: block.top, column: block.left };
  } catch {
    return null;
  }
}

/**
 * Lets a person point at cells while typing a formula, with the mouse and the keyboard.
 *
 * @example
 * ```ts
 * const stop = offerPointMode({ editing: () => cellField(), changed: (field) => mirror(field) });
 * ```
 * @param fields Where the formula being typed is, and how its changes are shown.
 * @returns A function that stops listening.
 */
export function offerPointMode(fields: PointModeFields): () => void {
  let pointed: Pointed | null = null;
  let dragging = false;
  // Set while this changes a field, so that its own input event keeps the pointed reference.
  let writing = false;

  const forget = () => {
    pointed = null;
    dragging = false;
    clearPointedCells();
  };
  /** The pointed reference at the caret of `field`, or null (typing moved on from it). */
  const pointedAt = (field: FormulaField): Pointed | null =>
    pointed &&
    pointed.field === field &&
    pointed.text === field.value &&
    field.selectionStart === pointed.end
      ? pointed
      : null;

  /** Puts the block from `anchor` to `far` in as the reference at the caret (or replaces one). */
  const point = (field: FormulaField, anchor: CellPosition, far: CellPosition) => {
    const text = field.value;
    const replacing = pointedAt(field);
    const start = replacing ? replacing.start : (field.selectionStart ?? text.length);
    const end = replacing ? replacing.end : (field.selectionEnd ?? start);
    const reference = pointedReference(anchor, far);
    field.value = text.slice(0, start) + reference + text.slice(end);
    const after = start + reference.length;
    field.setSelectionRange(after, after);
    pointed = { field, text: field.value, start, end: after, anchor, far };
    markPointedCells(anchor, far);
    writing = true;
    try {
      fields.changed(field);
    } finally {
      writing = false;
    }
  };
  /** The field in Point mode now: a formula at an insertion point, or just pointed. */
  const pointing = (): FormulaField | null => {
    const field = fields.editing();
    if (!field || !field.value.startsWith("=")) return null;
    const caret = field.selectionStart ?? field.value.length;
    if (pointedAt(field) || atInsertionPoint(field.value, caret)) return field;
    return null;
  };
  const cellAt = (target: EventTarget | null): HTMLElement | null => {
    const element = target instanceof Element ? target : null;
    const cell = element?.closest<HTMLElement>(".jss_worksheet td[data-cell]");
    return cell && !cell.classList.contains("editor") ? cell : null;
  };

  const mouseDown = (event: MouseEvent) => {
    dragging = false;
    const cell = cellAt(event.target);
    const at = positionOf(cell?.dataset.cell);
    const field = event.button === 0 ? pointing() : null;
    if (!at || !field) {
      forget();
      return;
    }
    event.preventDefault(); // the field keeps the keyboard
    event.stopPropagation(); // the grid neither ends the edit nor selects the cell
    const extended = event.shiftKey ? pointedAt(field) : null;
    point(field, extended ? extended.anchor : at, at);
    dragging = true;
  };
  const mouseOver = (event: MouseEvent) => {
    if (!dragging || !pointed) return;
    if ((event.buttons & 1) === 0) {
      dragging = false;
      return;
    }
    const at = positionOf(cellAt(event.target)?.dataset.cell);
    event.stopPropagation(); // the grid's selection stays where it was
    if (!at || (at.row === pointed.far.row && at.column === pointed.far.column)) return;
    point(pointed.field, pointed.anchor, at);
  };
  const mouseUp = () => {
    dragging = false;
  };
  const keyDown = (event: KeyboardEvent) => {
    if (["Enter", "Tab", "Escape"].includes(event.key)) forget(); // the edit ends
    if (event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "F4") {
      const field = fields.editing();
      if (!field || event.target !== field) return;
      const caret = field.selectionStart ?? field.value.length;
      const cycled = cycleReference(field.value, caret);
      if (!cycled) return;
      event.preventDefault();
      event.stopPropagation();
      const was = pointedAt(field);
      field.value = cycled.text;
      field.setSelectionRange(cycled.end, cycled.end);
      pointed = was ? { ...was, text: cycled.text, start: cycled.start, end: cycled.end } : null;
      if (!was) clearPointedCells();
      writing = true;
      try {
        fields.changed(field);
      } finally {
        writing = false;
      }
      return;
    }
    const step = STEPS[event.key];
    // F2's Edit mode: the arrows move the insertion point, as Excel's do (entryMode.ts).
    const field = step && entryMode() !== "Edit" ? pointing() : null;
    // Arrows point in the cell only (Enter mode); in the bar they move the caret (Edit mode).
    const edited = field?.closest<HTMLElement>("td.editor");
    if (!step || !field || event.target !== field || !edited) return;
    const caret = field.selectionStart ?? 0;
    if (caret !== field.selectionEnd || caret !== field.value.length) return;
    const was = pointedAt(field);
    const from = was ? was.far : positionOf(edited.dataset.cell);
    if (!from) return;
    event.preventDefault();
    event.stopPropagation();
    const to = {
      row: Math.max(0, Math.min(LAST_ROW, from.row + step.row)),
      column: Math.max(0, Math.min(LAST_COLUMN, from.column + step.column)),
    };
    point(field, was && event.shiftKey ? was.anchor : to, to);
  };
  // Typing moves on from the reference pointed: the next click or arrow puts a new one in.
  const input = (event: Event) => {
    if (!writing && pointed && event.target === pointed.field) forget();
  };

  document.addEventListener("mousedown", mouseDown, true);
  document.addEventListener("mouseover", mouseOver, true);
  window.addEventListener("mouseup", mouseUp, true);
  window.addEventListener("keydown", keyDown, true);
  document.addEventListener("input", input, true);
  return () => {
    document.removeEventListener("mousedown", mouseDown, true);
    document.removeEventListener("mouseover", mouseOver, true);
    window.removeEventListener("mouseup", mouseUp, true);
    window.removeEventListener("keydown", keyDown, true);
    document.removeEventListener("input", input, true);
  };
}
