import type { BulkResumeToken } from "spellrun";

/**
 * The runs of the chunks whose bulkStart was answered (a group id in the token): they started.
 *
 * ## Example
 * ```ts
 * startedRuns({ spellId: "s", groupIds: ["g0"], chunkSizes: [100, 100] }); // 100
 * ```
 * @param token the job's token, if any
 * @return the runs that started
 */
export function startedRuns(token: BulkResumeToken | undefined): number {
  let runs = 0;
  for (let chunk = 0; chunk < (token?.groupIds.length ?? 0); chunk++) {
    runs += token?.chunkSizes[chunk] ?? 0;
  }
  return runs;
}
