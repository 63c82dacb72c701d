import type { SelectionData } from "./readSelection.js";
import { rowFingerprint } from "./rowFingerprint.js";
import type { CellScalar } from "./toCellWrite.js";

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
  /** Mapped columns in input order. */
  inputs: Array<{ column: number; inputName: string }>;
  blankRows: number;
  /** Rows left out because they already have outputs (with `onlyRowsWithoutOutputs`). */
  rowsWithOutputs: number;
  /** Reasons the plan cannot run; empty when it can. */
  problems: string[];
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
 * Rows whose mapped cells are all empty are skipped; with `onlyRowsWithoutOutputs`, so are rows
 * that already have a value in an output column of an earlier run.
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
  options: { onlyRowsWithoutOutputs: boolean }
): BulkPlan {
  const problems: string[] = [];
  const inputs = mapping
    .filter((entry) => entry.inputName !== null && entry.inputName.trim() !== "")
    .map((entry) => ({ column: entry.column, inputName: (entry.inputName as string).trim() }));
  if (inputs.length === 0) problems.push("No column is used as an input.");
  const seen = new Set<string>();
  for (const { inputName } of inputs) {
    if (seen.has(inputName)) problems.push(`The input name "${inputName}" is used twice.`);
    seen.add(inputName);
  }
  if (selection.existing.blockingHeader !== undefined) {
    problems.push(
      `The column right of the selection is not empty ("${selection.existing.blockingHeader}"); ` +
        "outputs go there. Select a range with a free column on its right."
    );
  }

  const rows: PlannedRow[] = [];
  let blankRows = 0;
  let rowsWithOutputs = 0;
  selection.rows.forEach((cells, offset) => {
    const values = inputs.map(({ column }) => cells[column] ?? "");
    if (values.every((value) => String(value).trim() === "")) {
      blankRows++;
      return;
    }
    const earlier = selection.existing.cells[offset];
    if (options.onlyRowsWithoutOutputs && earlier?.slice(1).some((cell) => cell !== "")) {
      rowsWithOutputs++;
      return;
    }
    const rowInputs: Record<string, CellScalar> = {};
    inputs.forEach(({ inputName }, i) => (rowInputs[inputName] = values[i]));
    rows.push({ offset, inputs: rowInputs, fingerprint: rowFingerprint(values) });
  });
  if (rows.length === 0 && problems.length === 0) problems.push("No row to run.");
  return { rows, inputs, blankRows, rowsWithOutputs, problems };
}
