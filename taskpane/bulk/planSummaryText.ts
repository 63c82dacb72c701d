import { columnName } from "../sheet/a1Address.js";
import type { BulkPlan } from "./planBulk.js";

/**
 * What the pane says of a plan before Run: the problems that stop it, or how many runs at most
 * will start (identical rows share one), which rows are skipped and why, where the results go,
 * and the plan's warnings; with the tone of the sentence.
 *
 * ## Example
 * ```ts
 * const { text, tone } = planSummaryText(plan, false);
 * ```
 *
 * @param plan The plan.
 * @param stopped The user chose Stop over cells of theirs in the way.
 * @return The sentence and its tone.
 */
export function planSummaryText(
  plan: BulkPlan,
  stopped: boolean
): { text: string; tone: "bad" | "warn" | "info" } {
  if (plan.problems.length > 0) {
    const stop = plan.conflict && stopped ? " Stopped: nothing will run or be written." : "";
    return { text: plan.problems.join(" ") + stop, tone: "bad" };
  }
  const skipped: string[] = [];
  if (plan.blankRows) skipped.push(`${plan.blankRows} blank`);
  if (plan.rowsWithOutputs) skipped.push(`${plan.rowsWithOutputs} with outputs`);
  if (plan.hiddenRows) skipped.push(`${plan.hiddenRows} hidden or filtered out`);
  if (plan.errorRows.length) {
    skipped.push(`${plan.errorRows.length} with an error value in an input, status says which`);
  }
  const status = columnName(plan.statusColumn);
  const text =
    (plan.distinctRows < plan.rows.length
      ? `${plan.rows.length} rows; ${plan.distinctRows} run${plan.distinctRows === 1 ? "" : "s"} at most will start (identical rows share one)`
      : `${plan.rows.length} run${plan.rows.length === 1 ? "" : "s"} at most will start`) +
    (skipped.length ? ` (skipped: ${skipped.join(", ")})` : "") +
    `. Status goes in column ${status}, outputs to its right. Rows whose results are ` +
    "remembered from earlier runs are answered without a run." +
    plan.warnings.map((warning) => ` ${warning}`).join("");
  return { text, tone: plan.warnings.length > 0 ? "warn" : "info" };
}
