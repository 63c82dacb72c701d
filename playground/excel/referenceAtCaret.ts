/**
 * The text rules of Excel's Point mode and of F4, on a formula being typed: where a pointed
 * reference may go in (Microsoft, "Create a simple formula in Excel": type "=", then "select a
 * cell or type its address", then an operator and the next cell), the reference a pointed block
 * makes, and F4's cycle through reference types at the caret (Microsoft, "Switch between
 * relative, absolute and mixed references": "$A$1 (absolute column and absolute row), A$1
 * (relative column and absolute row), $A1 (absolute column and relative row), A1").
 */
import { blockAddress } from "./a1.js";

/** A cell of a sheet, zero-based. */
export interface CellPosition {
  row: number;
  column: number;
}

// Text before the caret after which a pointed cell's reference goes in.
const INSERTION_POINT = /[=(,+\-*/^&<>:]\s*$/;
// A cell or block reference, $ signs allowed ("A1", "$B$2:C10").
const REFERENCE = /\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?/g;

/**
 * Whether a reference may be pointed at the caret of a formula: the text is a formula and the
 * caret follows "=", an operator, "(" or ",".
 *
 * ## Example
 * ```ts
 * atInsertionPoint('=SPELL.RUN("sentiment",', 23); // true
 * atInsertionPoint("=A1", 3); // false
 * ```
 * @param text The formula being typed.
 * @param caret Where the caret is.
 * @return Whether a pointed reference goes in there.
 */
export function atInsertionPoint(text: string, caret: number): boolean {
  return text.startsWith("=") && INSERTION_POINT.test(text.slice(0, caret));
}

/**
 * The reference of the block between two pointed cells (in any order): "A2", "A2:A10".
 *
 * ## Example
 * ```ts
 * pointedReference({ row: 9, column: 0 }, { row: 1, column: 0 }); // "A2:A10"
 * ```
 * @param anchor Where the pointing started.
 * @param end Where it is now.
 * @return The reference.
 */
export function pointedReference(anchor: CellPosition, end: CellPosition): string {
  const top = Math.min(anchor.row, end.row);
  const left = Math.min(anchor.column, end.column);
  return blockAddress({
    top,
    left,
    rowCount: Math.abs(anchor.row - end.row) + 1,
    columnCount: Math.abs(anchor.column - end.column) + 1,
  });
}

/** A text changed at one place: the new text and where the changed part is in it. */
export interface ReplacedText {
  text: string;
  start: number;
  end: number;
}

/**
 * F4 on a formula: the reference at (or just before) the caret takes the next reference type,
 * A1 → $A$1 → A$1 → $A1 → A1; both corners of a block take the type of its first.
 *
 * ## Example
 * ```ts
 * cycleReference("=A1+B2", 3); // { text: "=$A$1+B2", start: 1, end: 5 }
 * ```
 * @param text The formula being typed.
 * @param caret Where the caret is.
 * @return The text with the reference changed, or null when no reference is at the caret.
 */
export function cycleReference(text: string, caret: number): ReplacedText | null {
  if (!text.startsWith("=")) return null;
  for (const match of text.matchAll(REFERENCE)) {
    const start = match.index;
    const end = start + match[0].length;
    if (caret < start || caret > end) continue;
    // A name (LOG10, SHEET2X) or a function is no reference; nor is text in quotes.
    if (/[A-Za-z0-9_.]/.test(text[start - 1] ?? "") || /[A-Za-z0-9_(!]/.test(text[end] ?? "")) {
      continue;
    }
    if ((text.slice(0, start).match(/"/g) ?? []).length % 2 === 1) continue;
    const corners = match[0].split(":");
    const next = nextType(corners[0]);
    const changed = corners.map((corner) => withType(corner, next)).join(":");
    return {
      text: text.slice(0, start) + changed + text.slice(end),
      start,
      end: start + changed.length,
    };
  }
  return null;
}

type ReferenceType = "$A$1" | "A$1" | "$A1" | "A1";

function nextType(corner: string): ReferenceType {
  const column = corner.startsWith("$");
  const row = corner.slice(1).includes("$");
  if (column && row) return "A$1";
  if (row) return "$A1";
  if (column) return "A1";
  return "$A$1";
}

function withType(corner: string, type: ReferenceType): string {
  const [, letters, digits] = /^\$?([A-Za-z]+)\$?([0-9]+)$/.exec(corner) ?? ["", corner, ""];
  const column = type === "$A$1" || type === "$A1" ? "$" : "";
  const row = type === "$A$1" || type === "A$1" ? "$" : "";
  return `${column}${letters}${row}${digits}`;
}
