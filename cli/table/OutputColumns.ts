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

/**
 * The header row of a layout. An output whose name is already a column (the `echo` spell
 * returns its inputs) is headed `output.<name>`.
 *
 * ## Example
 * ```ts
 * headerOf({ inputColumns: ["text"], outputNames: ["text", "words"] });
 * // ["text", "status", "output.text", "words", "error", "other_outputs"]
 * ```
 * @param layout the layout
 * @return the column names
 */
export function headerOf(layout: OutputColumns): string[] {
  const taken = new Set([...layout.inputColumns, "status", "error", "other_outputs"]);
  const outputs = layout.outputNames.map((name) => (taken.has(name) ? `output.${name}` : name));
  return [...layout.inputColumns, "status", ...outputs, "error", "other_outputs"];
}
