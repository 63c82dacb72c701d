import {
  concat,
  defer,
  map,
  mergeMap,
  of,
  throwError,
  timeout,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import { SpellRunError } from "../errors/SpellRunError.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
import type { SpellEndpoints } from "../http/SpellApi.js";
import { pollUntilDone } from "../operators/pollUntilDone.js";
import type { PollOptions, RunSnapshot } from "../types.js";
import { onStateChanges } from "../operators/onStateChanges.js";
import { toRunState } from "./parseResponses.js";

/**
 * Wait mode: one start with `wait: true`, one success snapshot. Another state, or no outputs,
 * is a `SpellRunError`; no answer within `timeoutMs` is a `SpellTimeoutError` (the request is
 * aborted by the unsubscribe that `timeout` performs).
 *
 * ## Example
 * ```ts
 * waitRun(api, "summarize", { text }, 120_000, asyncScheduler).subscribe(console.log);
 * ```
 * @internal
 */
export function waitRun(
  api: SpellEndpoints,
  spellId: string,
  inputs: Record<string, unknown>,
  timeoutMs: number,
  scheduler: SchedulerLike
): Observable<RunSnapshot> {
  return defer(() => api.startAndWait(spellId, inputs)).pipe(
    timeout({
      first: timeoutMs,
      scheduler,
      with: () => throwError(() => new SpellTimeoutError("POST", "start", timeoutMs)),
    }),
    map((answer): RunSnapshot => {
      const state = answer.state === undefined ? "success" : toRunState(answer.state);
      if (state !== "success") {
        throw new SpellRunError(state, answer.outputs ?? {});
      }
      if (answer.outputs === undefined) {
        throw new SpellRunError(
          "error",
          {},
          undefined,
          'POST /spells/start (wait mode) answered without "outputs"'
        );
      }
      return { state: "success", outputs: answer.outputs };
    })
  );
}

/**
 * Polls one run until it is finished: a snapshot per change of state, completing after
 * `success`; `failure` and `error` become `SpellRunError`. Unknown states count as in progress.
 *
 * ## Example
 * ```ts
 * pollRun(api, 42, {}, asyncScheduler).subscribe((s) => console.log(s.state));
 * ```
 * @internal
 */
export function pollRun(
  api: SpellEndpoints,
  runId: string | number,
  poll: PollOptions,
  scheduler: SchedulerLike
): Observable<RunSnapshot> {
  // api.getRun is cold: every re-subscription by the poll is a new request.
  return api.getRun(runId).pipe(
    map((answer): RunSnapshot => ({
      runId,
      state: toRunState(answer.state),
      outputs: answer.outputs,
    })),
    pollUntilDone((snapshot) => snapshot.state !== "inProgress", poll, scheduler)
  );
}

/**
 * Polling mode: start with `wait: false`, emit `inProgress` with the run id at once, then poll.
 *
 * ## Example
 * ```ts
 * startAndPollRun(api, "sleep", { ms: 5000 }, {}, asyncScheduler).subscribe(console.log);
 * ```
 * @internal
 */
export function startAndPollRun(
  api: SpellEndpoints,
  spellId: string,
  inputs: Record<string, unknown>,
  poll: PollOptions,
  scheduler: SchedulerLike
): Observable<RunSnapshot> {
  return defer(() => api.startPolling(spellId, inputs)).pipe(
    mergeMap((runId) =>
      concat(
        of<RunSnapshot>({ runId, state: "inProgress", outputs: {} }),
        pollRun(api, runId, poll, scheduler)
      )
    ),
    onStateChanges()
  );
}
