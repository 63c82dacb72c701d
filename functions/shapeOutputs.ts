import { excelError } from "./excelError.js";
import { toCellValue } from "./toCellValue.js";
import { unknownOutputError } from "./unknownOutputError.js";

/**
 * Turns a run's outputs into the row `SPELL.RUN` returns: the asked outputs in the asked order,
 * or, when none were asked, every output in the service's order (one output: one cell).
 *
 * ## Example
 * ```ts
 * shapeOutputs({ summary: "Short.", words: 1 });            // [["Short.", 1]]
 * shapeOutputs({ summary: "Short.", words: 1 }, ["words"]); // [[1]]
 * ```
 *
 * @param outputs The outputs of a successful run.
 * @param names The output names asked for, or `undefined` for all.
 * @return One row of cell values.
 * @throws `#N/A` naming the outputs that exist, when an asked name is not one of them.
 */
export function shapeOutputs(outputs: Record<string, unknown>, names?: string[]): unknown[][] {
  const available = Object.keys(outputs);
  if (!names) {
    if (available.length === 0) throw excelError("#N/A", "The spell finished without any outputs.");
    return [available.map((name) => toCellValue(outputs[name]))];
  }
  const unknown = names.filter((name) => !Object.prototype.hasOwnProperty.call(outputs, name));
  if (unknown.length > 0) throw unknownOutputError(unknown, available);
  return [names.map((name) => toCellValue(outputs[name]))];
}
