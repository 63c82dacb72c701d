/**
 * Excel's two ways of editing a cell (Microsoft, "Keyboard shortcuts in Excel": F2 "Edit the
 * active cell and put the insertion point at the end of its contents. Or, if editing is turned
 * off for the cell, move the insertion point into the formula bar"; the status bar shows the
 * mode): typing into a cell starts Enter mode, where an arrow key writes the entry and moves to
 * the next cell; F2 or a double-click starts Edit mode, where the arrow keys move the insertion
 * point within the text; F2 while editing switches between the two.
 */

/** How the cell being edited answers its arrow keys. */
export type EntryMode = "Enter" | "Edit";

let mode: EntryMode = "Edit";

/**
 * Sets the mode of the cell edit that starts (or goes on) now.
 *
 * @example
 * ```ts
 * setEntryMode("Enter"); // a character typed on a selected cell
 * ```
 */
export function setEntryMode(next: EntryMode): void {
  mode = next;
}

/**
 * The mode of the cell being edited.
 *
 * @example
 * ```ts
 * if (entryMode() === "Enter") endEntryAndMove();
 * ```
 */
export function entryMode(): EntryMode {
  return mode;
}

/**
 * Whether an arrow key in a formula being typed would point at a cell (Excel's Point mode: after
 * `=`, `(`, `,` or an operator), which an arrow key in Enter mode leaves to the formula.
 *
 * @example
 * ```ts
 * pointsAtCell("=SUM(", 5); // true
 * pointsAtCell("=1+2", 4); // false
 * ```
 */
export function pointsAtCell(text: string, caret: number): boolean {
  return text.startsWith("=") && /[=(,;+\-*/^&<>:]\s*$/.test(text.slice(0, caret));
}
