import { guardPastedCell } from "./guardPastedCell.js";
import { STATUS_HEADER } from "../sheet/outputLayout.js";
import type { KeptResult } from "../storedJob/BulkJob.js";

/**
 * Kept results (runs whose rows could no longer be found) as tab-separated text with a header
 * line (input names, status, then output names) and one line per record: its inputs (blank when
 * not known), status and outputs, for the user to paste where they belong. Every cell is guarded
 * for pasting (`guardPastedCell`): pasted into Excel, an output starting with
 * `=`, `+`, `-` or `@` stays text instead of becoming a formula.
 *
 * ## Example
 * ```ts
 * keptResultsText([{ status: "success", outputs: { upper: "D" }, inputs: ["d"] }], ["upper"], ["text"]);
 * // "text\tSpell status\tupper\nd\tsuccess\tD"
 * ```
 */
export function keptResultsText(
  kept: readonly KeptResult[],
  names: readonly string[],
  inputNames: readonly string[] = []
): string {
  if (kept.length === 0) return "";
  const cell = (value: unknown) =>
    guardPastedCell(
      (typeof value === "string"
        ? value
        : value === undefined
          ? ""
          : JSON.stringify(value)
      ).replace(/[\t\r\n]+/g, " ")
    );
  return [
    [...inputNames, STATUS_HEADER, ...names].map(cell).join("\t"),
    ...kept.map((result) =>
      [
        ...inputNames.map((_, i) => cell(result.inputs?.[i])),
        cell(result.status),
        ...names.map((name) => cell(ownValue(result.outputs, name))),
      ].join("\t")
    ),
  ].join("\n");
}

/** An output by name, own properties only: a missing "constructor" is blank, not a function. */
function ownValue(outputs: Record<string, unknown> | undefined, name: string): unknown {
  return outputs && Object.prototype.hasOwnProperty.call(outputs, name) ? outputs[name] : undefined;
}
