/**
 * The columns of a CSV/TSV output file: the input columns, then `status`, the spell's outputs,
 * `error` (the reason of a row that did not succeed) and `other_outputs` (JSON of any output
 * that has no column of its own). Fixed when the header is written and kept in the journal, so a
 * resumed job appends rows of the same shape.
 *
 * ## Example
 * ```ts
 * const layout: OutputColumns = { inputColumns: ["text"], outputNames: ["summary", "words"] };
 * ```
 */
export interface OutputColumns {
  inputColumns: string[];
  outputNames: string[];
}

/**
 * Chooses the output columns: `picked` (from `--columns`) when given, else every output name of
 * the sample's successful rows, in order of first appearance.
 *
 * ## Example
 * ```ts
 * chooseOutputColumns(["text"], [{ summary: "A.", words: 1 }]);
 * // { inputColumns: ["text"], outputNames: ["summary", "words"] }
 * ```
 * @param inputColumns the input table's columns
 * @param sampleOutputs outputs of successful rows seen so far
 * @param picked output names chosen by the user
 * @return the layout
 */
export function chooseOutputColumns(
  inputColumns: string[],
  sampleOutputs: Record<string, unknown>[],
  picked?: string[]
): OutputColumns {
  if (picked && picked.length > 0) return { inputColumns, outputNames: [...picked] };
  const names = new Set<string>();
  for (const outputs of sampleOutputs) for (const name of Object.keys(outputs)) names.add(name);
  return { inputColumns, outputNames: [...names] };
}

/** What a tool column is headed when an input column has its name (`status_spellrun`). */
export const TOOL_COLUMN_SUFFIX = "_spellrun";

/** What an output is headed when a column has its name (the `echo` spell: `text_output`). */
export const OUTPUT_COLUMN_SUFFIX = "_output";

/**
 * The header row of a layout: the input columns as they are; the tool's own columns `status`,
 * `error` and `other_outputs`, each with `_spellrun` added when an input column has its name;
 * an output named like a column before it with `_output` added (then `_2`, `_3`… while still
 * taken). No dots, so csvkit and miller read every name as one plain field. The tool's columns
 * are found by their place in the layout (see `toolColumnIndexes`), never by name.
 *
 * ## Example
 * ```ts
 * headerOf({ inputColumns: ["text", "status"], outputNames: ["text", "words"] });
 * // ["text", "status", "status_spellrun", "text_output", "words", "error", "other_outputs"]
 * ```
 * @param layout the layout
 * @return the column names
 */
export function headerOf(layout: OutputColumns): string[] {
  const used = new Set(layout.inputColumns);
  const unique = (name: string, suffix: string): string => {
    let candidate = used.has(name) ? `${name}${suffix}` : name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name}${suffix}_${n}`;
    used.add(candidate);
    return candidate;
  };
  // The tool's columns first: they keep their plain names unless the input has taken them.
  const status = unique("status", TOOL_COLUMN_SUFFIX);
  const error = unique("error", TOOL_COLUMN_SUFFIX);
  const other = unique("other_outputs", TOOL_COLUMN_SUFFIX);
  const outputs = layout.outputNames.map((name) => unique(name, OUTPUT_COLUMN_SUFFIX));
  return [...layout.inputColumns, status, ...outputs, error, other];
}

/**
 * Where a layout puts the tool's own columns, by place (input columns may have any name,
 * `status` included).
 *
 * ## Example
 * ```ts
 * toolColumnIndexes({ inputColumns: ["id", "status"], outputNames: ["words"] }).status; // 2
 * ```
 * @param layout the layout
 * @return the 0-based places of `status`, `error` and `other_outputs`, and the header's width
 */
export function toolColumnIndexes(layout: OutputColumns): {
  status: number;
  error: number;
  otherOutputs: number;
  width: number;
} {
  const status = layout.inputColumns.length;
  const error = status + 1 + layout.outputNames.length;
  return { status, error, otherOutputs: error + 1, width: error + 2 };
}
