import type { BulkJob } from "./BulkJob.js";
import { checkpointOf } from "./DocumentCheckpointStore.js";

/**
 * Why a stored job cannot be resumed, or `undefined` when it can. Resume only reads back what
 * the service ran: a job without a group id, or whose windows do not name the group of every row
 * (a crafted or damaged one), would make the engine start those rows again, with no inputs.
 *
 * ## Example
 * ```ts
 * const problem = resumeProblem(job);
 * if (problem) throw new Error(problem);
 * ```
 *
 * @param job The stored job.
 * @return The reason in the user's words, or `undefined`.
 */
export function resumeProblem(job: BulkJob): string | undefined {
  if (!job.token || job.token.groupIds.length === 0) {
    return "This bulk has no group id stored, so it cannot be resumed.";
  }
  const windows = [...checkpointOf(job).windows.values()];
  const covered = windows.reduce((sum, known) => sum + known.count, 0);
  if (
    windows.length === 0 ||
    covered !== job.rows.length ||
    windows.some((known) => !known.groupId || (known.sent ?? known.count) !== known.count)
  ) {
    return "This bulk's stored state does not name the runs of all its rows, so Resume could only start them again. Forget it, then Run.";
  }
  return undefined;
}
