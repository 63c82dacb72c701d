import { failureReason, type BulkRunEntry } from "spellrun";

/** Status cell text of a row that was not written because its inputs changed during the run. */
export const STALE_STATUS = "stale: inputs changed during the run; outputs not written";

/** Status cell text of a row whose run was cancelled (or never started) before it finished. */
export const CANCELLED_STATUS = "cancelled";

/**
 * The status cell text of a finished run: `success`, or the state and the service's message
 * (`failure: <reason>`, `error: <message>`).
 *
 * ## Example
 * ```ts
 * statusText({ state: "error", outputs: { error: "Cancelled" } }); // "error: Cancelled"
 * ```
 */
export function statusText(entry: BulkRunEntry): string {
  if (entry.state === "success") return "success";
  if (entry.state === "pending" || entry.state === "inProgress") return "running";
  return `${entry.state}: ${failureMessage(entry.outputs)}`;
}

/** The spell's explanation (`failureReason`), else the outputs as JSON. */
function failureMessage(outputs: Record<string, unknown>): string {
  const reason = failureReason(outputs);
  if (reason !== undefined) return reason;
  const json = JSON.stringify(outputs);
  return json === "{}" ? "no message from the service" : json;
}
