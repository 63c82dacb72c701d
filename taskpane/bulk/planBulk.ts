import { columnName } from "../sheet/a1Address.js";
import { FREE_COLUMNS_CHECKED } from "../sheet/readSelection.js";
import type { SelectionData } from "../sheet/readSelection.js";
import { dateInputValue } from "../sheet/dateInputValue.js";
import { rowFingerprint } from "../sheet/rowFingerprint.js";
import type { CellScalar } from "../sheet/toCellWrite.js";
import { headerRowAbove } from "./headerRowAbove.js";
import { isExcelError } from "./isExcelError.js";

export { isExcelError };

/**
 * What one selected column becomes: an input of the spell (under `inputName`) or nothing.
 *
 * ## Example
 * ```ts
 * const mapping: ColumnMapping = { column: 0, header: "Review", inputName: "text" };
 * ```
 */
export interface ColumnMapping {
  /** Column offset within the selection. */
  column: number;
  /** The header cell as written in the sheet. */
  header: string;
  /** The input name sent to the spell; `null` leaves the column out. */
  inputName: string | null;
}

/**
 * One run to start: a data row of the selection and the inputs read from it.
 *
 * ## Example
 * ```ts
 * const row: PlannedRow = { offset: 0, inputs: { text: "hello" }, fingerprint: "1x9k2m0a3b" };
 * ```
 */
export interface PlannedRow {
  /** Data row offset: 0 is the row under the header. */
  offset: number;
  inputs: Record<string, CellScalar>;
  /** `rowFingerprint` of the mapped input cells, to detect later edits. */
  fingerprint: string;
}

/**
 * What "Run" would start, for the view to show before anything is paid for.
 *
 * ## Example
 * ```ts
 * const plan = planBulk(selection, defaultMapping(selection.headers), { onlyRowsWithoutOutputs: true });
 * if (plan.problems.length === 0) console.log(`${plan.rows.length} runs will start`);
 * ```
 */
export interface BulkPlan {
  rows: PlannedRow[];
  /**
   * Rows with different inputs: the most runs the bulk starts (identical rows share one run, and
   * rows whose results are still remembered start none).
   */
  distinctRows: number;
  /** Mapped columns in input order. */
  inputs: Array<{ column: number; inputName: string }>;
  blankRows: number;
  /** Rows left out because they already have outputs (with `onlyRowsWithoutOutputs`). */
  rowsWithOutputs: number;
  /** Rows left out because they are hidden or filtered out (unless `runHiddenRows`). */
  hiddenRows: number;
  /**
   * Rows left out because an input cell holds an Excel error (`#N/A`, `#DIV/0!`...): never sent
   * to a paid spell. `status` says which input holds which error, for the row's status cell.
   */
  errorRows: Array<{ offset: number; status: string }>;
  /** Reasons the plan cannot run; empty when it can. */
  problems: string[];
  /**
   * Things the user should see before paying for the runs, which do not stop them: a first row
   * that does not look like names, data columns left out for want of a header name, outputs of
   * an earlier run that are replaced.
   */
  warnings: string[];
  /**
   * Cells of the user's (addresses) where the status column or the first output column would
   * go. Then the user chooses: insert new columns (`insertColumns`), pick another column
   * (`readSelection` with `statusColumn`), or stop. Undefined when nothing is in the way.
   */
  conflict?: string[];
  /**
   * Set when the row just above the selection looks like the input names and the first selected
   * row like data (`headerRowAbove`): the plan refuses until the user includes that row or says
   * the first row holds the names (`firstRowIsNames`), so no record is taken for names and no
   * header is written into a record.
   */
  headerAbove?: { row: number; names: string[] };
  /** New columns are inserted for status and outputs, so the user's cells move right, unwritten. */
  insertColumns: boolean;
  /** Absolute column of the status cells (before any insert: the columns are inserted there). */
  statusColumn: number;
  /**
   * Columns from the status column on that the run may write without inserting: checked free,
   * or an earlier run's status and outputs. A further output gets a new column inserted.
   */
  ownedWidth: number;
}

/**
 * The default mapping: every column is an input named by its header (trimmed); a column with an
 * empty header is left out.
 *
 * ## Example
 * ```ts
 * defaultMapping(["text", " language ", ""]); // text, language, (left out)
 * ```
 */
export function defaultMapping(headers: readonly CellScalar[]): ColumnMapping[] {
  return headers.map((header, column) => {
    const name = String(header).trim();
    return { column, header: String(header), inputName: name === "" ? null : name };
  });
}

/**
 * Decides which rows of a selection become runs, with which inputs. Pure: reads nothing.
 *
 * Rows whose mapped cells are all empty are skipped, and hidden or filtered-out rows unless
 * `runHiddenRows`; with `onlyRowsWithoutOutputs`, so are rows
 * that already have a value in an output column of an earlier run. A number shown through a date
 * or time format is sent as ISO 8601 text (`dateInputValue`), not as Excel's serial.
 *
 * ## Example
 * ```ts
 * const plan = planBulk(selection, mapping, { onlyRowsWithoutOutputs: false });
 * client.bulk(spellId, plan.rows.map((row) => row.inputs));
 * ```
 */
export function planBulk(
  selection: SelectionData,
  mapping: readonly ColumnMapping[],
  options: {
    onlyRowsWithoutOutputs: boolean;
    insertColumns?: boolean;
    runHiddenRows?: boolean;
    /** The user says the first selected row holds the names, whatever the row above looks like. */
    firstRowIsNames?: boolean;
  }
): BulkPlan {
  const problems: string[] = [];
  const headerAbove = options.firstRowIsNames ? undefined : headerRowAbove(selection);
  if (headerAbove) {
    const first = selection.block.top + 1;
    problems.push(
      `Row ${headerAbove.row + 1}, just above the selection, looks like the input names ` +
        `(${headerAbove.names.join(", ")}) and row ${first} like the data under it: include ` +
        `row ${headerAbove.row + 1} as the header row, or say that row ${first} holds the names. ` +
        `Until then nothing runs, and nothing is written into row ${first}.`
    );
  }
  const inputs = mapping
    .filter((entry) => entry.inputName !== null && entry.inputName.trim() !== "")
    .map((entry) => ({ column: entry.column, inputName: (entry.inputName as string).trim() }));
  if (inputs.length === 0) problems.push("No column is used as an input.");
  // Names that differ only in case are refused like duplicates: a service may fold them.
  const seen = new Map<string, string>();
  for (const { inputName } of inputs) {
    const earlier = seen.get(inputName.toLowerCase());
    if (earlier === inputName) problems.push(`The input name "${inputName}" is used twice.`);
    else if (earlier !== undefined) {
      problems.push(
        `The input names "${earlier}" and "${inputName}" differ only in case; rename one.`
      );
    }
    seen.set(inputName.toLowerCase(), earlier ?? inputName);
  }
  // Never overwrite: the status column and the first output column must hold nothing of the
  // user's, else the user chooses (insert columns, another column, or stop); a later occupied
  // column gets new columns inserted before it when outputs reach it.
  const statusColumn = selection.statusColumn ?? selection.block.left + selection.block.columnCount;
  const occupied = selection.existing.occupied ?? [];
  const inTheWay = occupied.filter((column) => column.offset <= 1);
  const { blockingHeader } = selection.existing;
  const conflict =
    blockingHeader !== undefined
      ? [`${columnName(statusColumn)}${selection.block.top + 1}`]
      : inTheWay.length > 0
        ? inTheWay.map((column) => column.address)
        : undefined;
  const insertColumns = conflict !== undefined && options.insertColumns === true;
  if (conflict && !insertColumns) {
    problems.push(
      `Column${conflict.length === 1 ? "" : "s"} ${conflict.map((a) => a.replace(/\d+$/, "")).join(", ")} ` +
        `${conflict.length === 1 ? "holds" : "hold"} data of yours (${conflict.join(", ")}${
          blockingHeader !== undefined ? `: "${blockingHeader}"` : ""
        }) where status and outputs would go, and nothing of yours is ever overwritten. ` +
        "Insert new columns for the results, pick another column, or stop."
    );
  }
  const hasStatus = selection.existing.cells.length > 0;
  const ownedWidth = insertColumns
    ? 1
    : hasStatus
      ? 1 + selection.existing.outputNames.length
      : Math.min(FREE_COLUMNS_CHECKED, ...occupied.map((column) => column.offset));

  const rows: PlannedRow[] = [];
  const errorRows: BulkPlan["errorRows"] = [];
  let blankRows = 0;
  let rowsWithOutputs = 0;
  let replaced = 0;
  let hiddenRows = 0;
  const hidden = new Set(options.runHiddenRows ? [] : (selection.hiddenRows ?? []));
  selection.rows.forEach((cells, offset) => {
    const values = inputs.map(({ column }) => cells[column] ?? "");
    if (values.every((value) => String(value).trim() === "")) {
      blankRows++;
      return;
    }
    // Hidden and filtered-out rows are not what the user sees as the range: skipped by default.
    if (hidden.has(offset)) {
      hiddenRows++;
      return;
    }
    const errorAt = values.findIndex(isExcelError);
    if (errorAt >= 0) {
      const status = `skipped: input "${inputs[errorAt].inputName}" holds ${String(values[errorAt]).trim()}`;
      errorRows.push({ offset, status });
      return;
    }
    const earlier = selection.existing.cells[offset];
    const hasOutputs = earlier?.slice(1).some((cell) => cell !== "") === true;
    if (options.onlyRowsWithoutOutputs && hasOutputs) {
      rowsWithOutputs++;
      return;
    }
    if (hasOutputs) replaced++;
    // Date-formatted cells go as ISO 8601 dates; the fingerprint stays over the raw values, as
    // the later stale checks read them. Defined, not assigned: a "__proto__" column is data.
    const formats = selection.formats?.[offset];
    const rowInputs: Record<string, CellScalar> = Object.fromEntries(
      inputs.map(({ inputName, column }, i) => [
        inputName,
        dateInputValue(values[i], formats?.[column]),
      ])
    );
    rows.push({ offset, inputs: rowInputs, fingerprint: rowFingerprint(values) });
  });
  if (rows.length === 0 && problems.length === 0) problems.push("No row to run.");
  const later = occupied.find((column) => column.offset > 1);
  const { outputNames } = selection.existing;
  const warnings = [
    ...(insertColumns
      ? [
          `New columns are inserted at column ${columnName(statusColumn)} for status and outputs; ` +
            `your data there (${conflict?.join(", ")}) moves right, unwritten.`,
        ]
      : []),
    ...(later && !conflict
      ? [
          `Column ${later.address.replace(/\d+$/, "")} holds data (${later.address}): outputs ` +
            `beyond ${later.offset - 1} get new columns inserted before it, so it is not overwritten.`,
        ]
      : []),
    ...(replaced > 0
      ? [
          `${replaced} row${replaced === 1 ? " has" : "s have"} outputs of an earlier run of this ` +
            `pane (columns ${columnName(statusColumn)}–${columnName(statusColumn + outputNames.length)}); ` +
            `${replaced === 1 ? "its outputs are" : "their outputs are"} replaced.`,
        ]
      : []),
    ...headerWarnings(selection, mapping),
    ...unnamedColumnWarnings(selection, mapping),
  ];
  return {
    rows,
    distinctRows: new Set(rows.map((row) => JSON.stringify(row.inputs))).size,
    inputs,
    blankRows,
    rowsWithOutputs,
    hiddenRows,
    errorRows,
    problems,
    warnings,
    conflict,
    ...(headerAbove ? { headerAbove } : {}),
    insertColumns,
    statusColumn,
    ownedWidth,
  };
}

/**
 * A first row that does not look like input names (a number, an empty cell over data, or the
 * same text as a data row) usually means the selection starts below its header row.
 */
function headerWarnings(selection: SelectionData, mapping: readonly ColumnMapping[]): string[] {
  const named = mapping.filter((entry) => entry.inputName !== null);
  const header = selection.headers;
  const numeric = named.filter((entry) => typeof header[entry.column] === "number");
  if (numeric.length > 0) {
    return [
      `The first row holds numbers (${numeric.map((entry) => String(header[entry.column])).join(", ")}), ` +
        "so it may be data rather than input names: select the header row too.",
    ];
  }
  const headerText = named.map((entry) => String(header[entry.column]).trim());
  const repeated = selection.rows.some(
    (cells) =>
      named.length > 0 &&
      named.every((entry, i) => String(cells[entry.column] ?? "").trim() === headerText[i])
  );
  if (repeated) {
    return [
      "The first row is the same as a data row, so it may be data rather than input names: " +
        "select the header row too.",
    ];
  }
  return [];
}

/** Columns with data but no header name are left out: say so, naming them. */
function unnamedColumnWarnings(
  selection: SelectionData,
  mapping: readonly ColumnMapping[]
): string[] {
  const unnamed = mapping.filter(
    (entry) =>
      entry.inputName === null &&
      String(entry.header).trim() === "" &&
      selection.rows.some((cells) => String(cells[entry.column] ?? "").trim() !== "")
  );
  if (unnamed.length === 0) return [];
  const letters = unnamed.map((entry) => columnName(selection.block.left + entry.column));
  return [
    `Column${letters.length === 1 ? "" : "s"} ${letters.join(", ")} ` +
      `${letters.length === 1 ? "has" : "have"} data but no name in the first row, so ` +
      `${letters.length === 1 ? "it is" : "they are"} left out.`,
  ];
}
