/**
 * The sheet tabs and the keyboard: the sheet a tab shows takes the keyboard, as Excel's does
 * after a tab is chosen (what is typed next goes into that sheet's active cell). jspreadsheet
 * keeps the worksheet last clicked as its keyboard's even once its tab is hidden, so a key typed
 * after a tab click opened an editor on the hidden sheet, and the next tab click wrote it there
 * (emptied). Here no key reaches a worksheet that is not shown.
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";

/** What this needs of the grid. */
export interface ShownSheet {
  /** The worksheet of the sheet shown now. */
  worksheet(): WorksheetInstance | undefined;
  /** Gives the keyboard to the sheet shown (its active cell selected, the formula bar on it). */
  takeKeyboard(): void;
  /** A button was pressed on the tabs: the sheet shown may be left (its view is kept). */
  leaving(): void;
}

type KeyboardWorksheet = WorksheetInstance & { edition?: [HTMLElement, ...unknown[]] | null };

/**
 * Gives the keyboard to the sheet shown whenever a tab is chosen (a click, or a right click,
 * which also chooses it), and before any key if another worksheet kept it.
 *
 * @example
 * ```ts
 * const stop = followSheetTabs(element.querySelector(".jtabs-headers"), shownSheet);
 * ```
 * @param tabs The tabs' headers (jSuites chooses the tab in its own listener, first).
 * @param shown The sheet shown.
 * @returns A function that stops listening.
 */
export function followSheetTabs(tabs: Element | null, shown: ShownSheet): () => void {
  const chosen = () => shown.takeKeyboard();
  // An edit still open on the sheet left is written first, as a click outside its cell writes
  // it. Keys typed in a field outside the grid (the Name Box, the task pane) stay there.
  const keyDown = (event: KeyboardEvent) => {
    if (!forTheGrid(event.target)) return;
    const keyboard = jspreadsheet as unknown as { current: KeyboardWorksheet | null };
    const current = keyboard.current;
    const worksheet = shown.worksheet();
    if (!current || !worksheet || current === worksheet) return;
    if (current.edition) current.closeEditor(current.edition[0] as HTMLTableCellElement, true);
    shown.takeKeyboard();
  };
  // On the tabs and their "+" (jSuites' controls beside them), before jSuites' own listeners
  // (capture): the sheet shown is still the one left.
  const pressed = () => shown.leaving();
  const bar = tabs?.parentElement ?? tabs;
  for (const type of ["click", "contextmenu"]) tabs?.addEventListener(type, chosen);
  bar?.addEventListener("mousedown", pressed, true);
  window.addEventListener("keydown", keyDown, true);
  return () => {
    for (const type of ["click", "contextmenu"]) tabs?.removeEventListener(type, chosen);
    bar?.removeEventListener("mousedown", pressed, true);
    window.removeEventListener("keydown", keyDown, true);
  };
}

/** Whether a key goes to the grid: its hidden textarea, a cell's editor, or no field at all. */
function forTheGrid(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return true;
  if (target.closest(".jss_worksheet") || target.classList.contains("jss_textarea")) return true;
  return target === document.body || target === document.documentElement;
}
