import { concatMap, defer, type Observable, type SchedulerLike, throwError } from "rxjs";
import { SpellError } from "../errors/SpellError.js";
import type { SpellRunEndpoints } from "../http/SpellRunEndpoints.js";
import { onStateChanges } from "../operators/onStateChanges.js";
import type { PollOptions, RunSnapshot } from "../types.js";
import type { ConcurrencyLimiter } from "../util/ConcurrencyLimiter.js";
import { pollRun } from "./runSnapshots.js";
import { loadCode } from "../util/loadCode.js";

/**
 * A single run started earlier in polling mode, polled again: the run id checked first (its
 * checks loaded with the first resume), then polled at once and on the usual schedule in a run
 * slot, a snapshot per change of state.
 *
 * ## Example
 * ```ts
 * resumedRun(api, limiter, poll, asyncScheduler, "run-1").subscribe(console.log);
 * ```
 * @param api the service's endpoints
 * @param limiter the client's run slots
 * @param poll the client's poll options
 * @param scheduler the scheduler of every timer
 * @param runId the run id from an earlier snapshot
 * @return a cold Observable of snapshots
 */
export function resumedRun(
  api: SpellRunEndpoints,
  limiter: ConcurrencyLimiter,
  poll: Required<PollOptions>,
  scheduler: SchedulerLike,
  runId: string | number
): Observable<RunSnapshot> {
  // The argument checks are loaded with the first resume: most programs never resume.
  return defer(() =>
    loadCode("./runs/resumeArgumentProblem.js", () => import("./resumeArgumentProblem.js"))
  ).pipe(
    concatMap(({ runIdProblem }) => {
      const problem = runIdProblem(runId);
      if (problem !== undefined) {
        return throwError(() => new SpellError(`resumeRun: ${problem}`));
      }
      return limiter.schedule(
        defer(() => pollRun(api, runId, { ...poll, initialDelayMs: 0 }, scheduler)).pipe(
          onStateChanges()
        )
      );
    })
  );
}
