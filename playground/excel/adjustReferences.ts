/**
 * A formula's references after rows or columns were inserted or deleted, as Excel adjusts them.
 * Microsoft's "How to correct a #REF! error": "The #REF! error shows when a formula refers to a
 * cell that's not valid. This happens most often when cells that were referenced by formulas get
 * deleted"; its example `=SUM(B2,C2,D2)` reads `=SUM(B2,#REF!,C2)` once column C is deleted,
 * while a range such as `=SUM(B2:D2)` shrinks to `=SUM(B2:C2)`.
 */
import { columnIndex, columnName, LAST_COLUMN, LAST_ROW } from "./a1.js";

/**
 * Rows or columns inserted (`count` > 0) or deleted (`count` < 0) at `at` (zero-based) of a sheet.
 *
 * ## Example
 * ```ts
 * const edit: LineEdit = { sheet: "Sheet1", axis: "column", at: 2, count: -1 }; // column C deleted
 * ```
 */
export interface LineEdit {
  sheet: string;
  axis: "row" | "column";
  at: number;
  count: number;
}

// An optional sheet, then a cell ("$B$2"), a block of cells ("B2:D9") or whole columns ("A:C").
const REFERENCE =
  /(?<![A-Za-z0-9_.$!'])((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(?:(\$?)([A-Z]{1,3})(\$?)(\d+)(?::(\$?)([A-Z]{1,3})(\$?)(\d+))?|(\$?)([A-Z]{1,3}):(\$?)([A-Z]{1,3}))(?![\d(A-Za-z_!])/g;

/**
 * The formula with its references to `edit.sheet` adjusted: moved past an insert or a delete,
 * grown by an insert inside a range, shrunk by a delete inside it, `#REF!` when what they named
 * was deleted. Absolute references (`$B$2`) move too, as in Excel; text in quotes stays.
 *
 * ## Example
 * ```ts
 * adjustReferences("=SUM(B2,C2,D2)", "Sheet1", { sheet: "Sheet1", axis: "column", at: 2, count: -1 });
 * // "=SUM(B2,#REF!,C2)"
 * ```
 *
 * @param formula The formula, with its `=`.
 * @param formulaSheet The sheet the formula is on (where references without a sheet point).
 * @param edit The insert or delete.
 * @return The formula as Excel shows it after the edit.
 */
export function adjustReferences(formula: string, formulaSheet: string, edit: LineEdit): string {
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(REFERENCE, (match: string, prefix: string | undefined, ...groups) => {
            const sheet = prefix ? unquote(prefix.slice(0, -1)) : formulaSheet;
            if (sheet !== edit.sheet) return match;
            const adjusted = adjustOne(groups as (string | undefined)[], edit);
            return adjusted === undefined ? `${prefix ?? ""}#REF!` : `${prefix ?? ""}${adjusted}`;
          })
    )
    .join("");
}

function adjustOne(groups: (string | undefined)[], edit: LineEdit): string | undefined {
  const [c1$, c1, r1$, r1, c2$, c2, r2$, r2, wc1$, wc1, wc2$, wc2] = groups;
  if (wc1 !== undefined && wc2 !== undefined) {
    // Whole columns: a row edit leaves them as they are.
    if (edit.axis === "row") return `${wc1$}${wc1}:${wc2$}${wc2}`;
    const span = adjustSpan(columnIndex(wc1), columnIndex(wc2), edit, LAST_COLUMN);
    if (!span) return undefined;
    return `${wc1$}${columnName(span[0])}:${wc2$}${columnName(span[1])}`;
  }
  const first = { column: columnIndex(c1 as string), row: Number(r1) - 1 };
  const last = c2 === undefined ? first : { column: columnIndex(c2), row: Number(r2) - 1 };
  const along = edit.axis === "row" ? "row" : "column";
  const span = adjustSpan(
    first[along],
    last[along],
    edit,
    edit.axis === "row" ? LAST_ROW : LAST_COLUMN
  );
  if (!span) return undefined;
  const start = { ...first, [along]: span[0] };
  const end = { ...last, [along]: span[1] };
  const cell = (anchorColumn = "", column: number, anchorRow = "", row: number) =>
    `${anchorColumn}${columnName(column)}${anchorRow}${row + 1}`;
  const startText = cell(c1$, start.column, r1$, start.row);
  return c2 === undefined ? startText : `${startText}:${cell(c2$, end.column, r2$, end.row)}`;
}

/** A span `from`..`to` of lines after the edit; undefined when all of it was deleted. */
function adjustSpan(
  from: number,
  to: number,
  edit: LineEdit,
  last: number
): [number, number] | undefined {
  const { at, count } = edit;
  if (count > 0) {
    const start = from >= at ? from + count : from;
    const end = to >= at ? to + count : to;
    // Pushed off the sheet (Excel refuses such an insert when the cells hold anything).
    return start > last ? undefined : [start, Math.min(end, last)];
  }
  const deleted = -count;
  const start = from < at ? from : from >= at + deleted ? from - deleted : at;
  const end = to < at ? to : to >= at + deleted ? to - deleted : at - 1;
  return end < start ? undefined : [start, end];
}

function unquote(name: string): string {
  return name.startsWith("'") ? name.slice(1, -1).replace(/''/g, "'") : name;
}
