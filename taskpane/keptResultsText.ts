import { STATUS_HEADER } from "./outputLayout.js";
import type { KeptResult } from "./resumeState.js";

/**
 * Kept results (runs whose rows could no longer be found) as tab-separated text with a header
 * line (status, then output names), for the user to paste where they belong.
 *
 * ## Example
 * ```ts
 * keptResultsText([{ status: "success", outputs: { upper: "D" } }], ["upper"]); // "Spell status\tupper\nsuccess\tD"
 * ```
 */
export function keptResultsText(kept: readonly KeptResult[], names: readonly string[]): string {
  if (kept.length === 0) return "";
  const cell = (value: unknown) =>
    (typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value)).replace(
      /[\t\r\n]+/g,
      " "
    );
  return [
    [STATUS_HEADER, ...names].join("\t"),
    ...kept.map((result) =>
      [cell(result.status), ...names.map((name) => cell(result.outputs?.[name]))].join("\t")
    ),
  ].join("\n");
}
