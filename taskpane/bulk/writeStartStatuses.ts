import type { BulkJob } from "../storedJob/BulkJob.js";
import { writeTargetOf } from "../storedJob/writeTargetOf.js";
import type { SelectionData } from "../sheet/readSelection.js";
import { writeOutputs } from "../sheet/writeOutputs.js";
import type { BulkPlan } from "./planBulk.js";

/**
 * Before any run, the status column says what this run is about: the rows left out because an
 * input holds an Excel error value say why (which input, which error), and the rows about to run
 * lose the previous run's status (`cancelled`, `success` beside new inputs would mislead until
 * each row lands). One read and one write, none when there is nothing to say.
 *
 *
 * ## Example
 * ```ts
 * const statuses = await writeStartStatuses(job, plan, selection);
 * ```
 *
 * @param job The new job.
 * @param plan Its plan (rows to run, rows left out).
 * @param selection What was read (the previous statuses).
 * @return What was written (sheet row → status text).
 */
export async function writeStartStatuses(
  job: BulkJob,
  plan: BulkPlan,
  selection: SelectionData
): Promise<Map<number, string>> {
  const statuses = new Map<number, string>();
  for (const { offset, status } of plan.errorRows) {
    statuses.set(job.headerRow + 1 + offset, status);
  }
  for (const { offset } of plan.rows) {
    const previous = selection.existing.cells[offset]?.[0];
    if (previous !== undefined && String(previous).trim() !== "") {
      statuses.set(job.headerRow + 1 + offset, "");
    }
  }
  if (statuses.size === 0) return statuses;
  await writeOutputs(
    writeTargetOf(job, "none"),
    [...statuses].map(([row, status], i) => ({
      run: -1 - i,
      row,
      fingerprint: "",
      status,
      checkInputs: false,
    }))
  );
  return statuses;
}
