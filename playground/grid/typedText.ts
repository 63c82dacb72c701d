/**
 * Any character typed on a selected cell starts editing it with that character, as in Excel:
 * jspreadsheet starts editing on the keydown of a key it knows, so text that comes without such
 * a keydown (a character of another layout inserted as text, an IME's composed text) was lost.
 * The grid's own hidden textarea takes the keyboard while a cell is selected (a click on a cell
 * takes it from the Name Box), and text typed into it opens the active cell's editor with it.
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";
import { activeCellElement } from "./activeCell.js";
import { setEntryMode } from "./entryMode.js";

/** What this needs of jspreadsheet's current worksheet. */
interface TypingWorksheet {
  edition?: unknown;
  textarea?: HTMLTextAreaElement;
  openEditor(cell: HTMLElement, empty: boolean): void;
}

function currentWorksheet(): TypingWorksheet | null {
  return (jspreadsheet as unknown as { current: TypingWorksheet | null }).current;
}

/** Whether an element is the grid's hidden textarea. */
function isGridTextarea(target: EventTarget | null): target is HTMLTextAreaElement {
  return target instanceof HTMLTextAreaElement && target.classList.contains("jss_textarea");
}

/**
 * The grid's hidden textarea takes the keyboard (unless a cell is being edited), so that text
 * typed next goes into the active cell: after a click on a cell, the Name Box's Enter or Escape,
 * or the Go To dialog.
 *
 * @example
 * ```ts
 * grid.goTo("B2");
 * focusGrid();
 * ```
 */
export function focusGrid(): void {
  const worksheet = currentWorksheet();
  if (!worksheet || worksheet.edition || !worksheet.textarea) return;
  worksheet.textarea.focus({ preventScroll: true });
}

/**
 * Opens the active cell's editor holding `text`, as a first keystroke in Excel does ("" for
 * Backspace, which clears the active cell and edits it).
 *
 * @example
 * ```ts
 * startEditing("é");
 * ```
 */
export function startEditing(text: string): void {
  const worksheet = currentWorksheet();
  if (!worksheet || worksheet.edition) return;
  const cell = activeCellElement(worksheet as unknown as WorksheetInstance);
  if (!cell) return;
  setEntryMode("Enter"); // typing into a cell starts Excel's Enter mode
  worksheet.openEditor(cell, true);
  const editor = cell.querySelector<HTMLInputElement | HTMLTextAreaElement>("input, textarea");
  if (!editor) return;
  editor.value = text;
  editor.setSelectionRange(text.length, text.length);
  // The formula bar mirrors the editor on its input events.
  editor.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Listens for text typed on a selected cell of the grid.
 *
 * @example
 * ```ts
 * const stop = listenToTypedText();
 * ```
 * @returns A function that stops listening.
 */
export function listenToTypedText(): () => void {
  // A click on a cell: the grid takes the keyboard (from the Name Box too) at once, so that a
  // key typed right after the click reaches it (a double click's editor takes it after).
  const pointerUp = (event: Event) => {
    if (event.target instanceof Element && event.target.closest(".jss_worksheet tbody"))
      focusGrid();
  };
  // An edit ended (Enter, Tab, Escape): the keyboard goes back to the grid, unless a field
  // outside it took it (the editor leaves the page without a focusout).
  const keyDown = (event: KeyboardEvent) => {
    if (!["Enter", "Tab", "Escape"].includes(event.key)) return;
    if (!(event.target instanceof Element) || !event.target.closest("td.editor")) return;
    setTimeout(() => {
      if (document.activeElement === document.body || document.activeElement === null) focusGrid();
    });
  };
  const input = (event: Event) => {
    if (!isGridTextarea(event.target) || (event as InputEvent).isComposing) return;
    const text = (event as InputEvent).data ?? event.target.value;
    event.target.value = "";
    if (text !== "") startEditing(text);
  };
  const compositionEnd = (event: CompositionEvent) => {
    if (!isGridTextarea(event.target)) return;
    event.target.value = "";
    if (event.data) startEditing(event.data);
  };
  document.addEventListener("pointerup", pointerUp, true);
  document.addEventListener("keydown", keyDown, true);
  document.addEventListener("input", input, true);
  document.addEventListener("compositionend", compositionEnd, true);
  return () => {
    document.removeEventListener("pointerup", pointerUp, true);
    document.removeEventListener("keydown", keyDown, true);
    document.removeEventListener("input", input, true);
    document.removeEventListener("compositionend", compositionEnd, true);
  };
}
