import { catchError, first, lastValueFrom, of, timeout } from "rxjs";
import type { SpellClient } from "../SpellClient.js";
import { chunkPlan, planRuns } from "./chunkPlan.js";
import { CANCELLED, setResult, type JobWindow } from "./JobWindow.js";
import type { RowResult } from "./RowResult.js";
import { applyRuns } from "./takeFinishedRows.js";

/**
 * After cancelBulk, reads the window's group once more: what finished meanwhile (and was paid
 * for) is kept; a run the cancel stopped (`error`) and every row still without a result become
 * `cancelled`.
 *
 * ## Example
 * ```ts
 * await readAfterCancel(client, window, 10_000, NOT_RECORDED);
 * ```
 * @param client the job's client
 * @param window the cancelled window
 * @param timeoutMs how long the read may take
 * @param unknown the result of a row whose start may have happened unrecorded
 * @internal
 */
export async function readAfterCancel<Row>(
  client: Pick<SpellClient, "resumeBulk">,
  window: JobWindow<Row>,
  timeoutMs: number,
  unknown: RowResult
): Promise<void> {
  const before = window.results.slice();
  // A window whose chunk intents say some chunks were never sent: only its named groups are read.
  const plan = window.token && chunkPlan(window.token);
  const token = plan ? plan.named?.token : window.token;
  if (token !== undefined) {
    const count = plan ? (plan.named?.runs.length ?? 0) : window.sentRows.length;
    const last = await lastValueFrom(
      client.resumeBulk(token, count).pipe(
        first((snapshot) => snapshot.done),
        timeout({ first: timeoutMs }),
        catchError(() => of(undefined))
      ),
      { defaultValue: undefined }
    );
    if (last) {
      const runs = plan ? planRuns(plan, window.sentRows.length, last.runs, undefined) : last.runs;
      applyRuns(window, runs, unknown);
    }
  }
  window.results.forEach((result, place) => {
    // A run the cancel stopped ends as `error`: it is a cancelled row, not a failed run.
    if (before[place] === undefined && result?.status === "error") {
      window.results[place] = CANCELLED;
    }
  });
  for (let place = 0; place < window.rows.length; place++) {
    if (window.results[place] === undefined) setResult(window, place, CANCELLED);
  }
}
