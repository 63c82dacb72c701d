import {
  catchError,
  concat,
  defer,
  filter,
  map,
  mergeMap,
  of,
  throwError,
  type Observable,
  type SchedulerLike,
} from "rxjs";
import { runEndedText } from "../errors/runEndedText.js";
import { describeRequest } from "../errors/describeRequest.js";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellPollLimitError } from "../errors/SpellPollLimitError.js";
import { SpellRunError } from "../errors/SpellRunError.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
import type { SpellRunEndpoints } from "../http/SpellRunEndpoints.js";
import { DEFAULT_POLL, pollUntilDone } from "../operators/pollUntilDone.js";
import type { PollOptions, RunSnapshot } from "../types.js";
import type { PollSchedule } from "../operators/backoffSchedule.js";
import { measureRunDuration } from "../operators/measureRunDuration.js";
import { onStateChanges } from "../operators/onStateChanges.js";
import { stopAfter } from "../operators/stopAfter.js";
import {
  serviceStateOf,
  toRunState,
  type RunAnswer,
  type WaitAnswer,
} from "../http/parseResponses.js";

/**
 * Wait mode: one start with `wait: true`, one success snapshot. Another state, or no outputs,
 * is a `SpellRunError`; no answer within `timeoutMs` is a `SpellTimeoutError` (the request is
 * aborted by the unsubscribe that `timeout` performs). A service that answers `{ runId }`
 * instead (switching a long spell to polling) is followed: that run is polled (`poll`) and
 * only its success snapshot is emitted, so wait mode still emits one snapshot.
 *
 * ## Example
 * ```ts
 * waitRun(api, "summarize", { text }, 120_000, asyncScheduler).subscribe(console.log);
 * ```
 * @internal
 */
export function waitRun(
  api: SpellRunEndpoints,
  spellId: string,
  inputs: Record<string, unknown>,
  timeoutMs: number,
  scheduler: SchedulerLike,
  poll: PollOptions = {}
): Observable<RunSnapshot> {
  const started$ = defer(() => api.startAndWait(spellId, inputs));
  // Infinity: the transport bounds the request itself (from sending, not from queueing).
  const bounded$ = Number.isFinite(timeoutMs)
    ? // The start answers once: bounding it bounds the wait for that answer only.
      started$.pipe(
        stopAfter(timeoutMs, () => new SpellTimeoutError("POST", "start", timeoutMs), scheduler)
      )
    : started$;
  return bounded$.pipe(
    mergeMap((answer) =>
      answer.runId === undefined
        ? of(waitAnswerSnapshot(answer))
        : pollRun(api, answer.runId, poll, scheduler, undefined, visibilityGraceOf(poll)).pipe(
            onStateChanges(),
            filter((snapshot) => snapshot.state === "success")
          )
    )
  );
}

function visibilityGraceOf(poll: PollOptions): number {
  return poll.runVisibilityGraceMs ?? DEFAULT_POLL.runVisibilityGraceMs;
}

/** The one snapshot of a wait-mode answer with outputs (or its SpellRunError). */
function waitAnswerSnapshot(answer: WaitAnswer): RunSnapshot {
  const state = answer.state === undefined ? "success" : toRunState(answer.state);
  if (state !== "success") {
    const said = answer.state === undefined ? undefined : serviceStateOf(answer.state);
    // The run id of a finished answer, when the service sent one: named in the message.
    throw new SpellRunError(
      state,
      answer.outputs ?? {},
      answer.id,
      said === undefined ? undefined : runEndedText(state, answer.id, said)
    );
  }
  if (answer.outputs === undefined) {
    throw new SpellRunError(
      "error",
      {},
      undefined,
      `${describeRequest("POST", "start")} (wait mode) answered without "outputs"`
    );
  }
  return { state: "success", outputs: answer.outputs };
}

/**
 * Polls one run until it is finished: a snapshot per answer, completing after the first
 * finished one (`success`, `failure`, `error`; `onStateChanges` turns the last two into a
 * `SpellRunError`). Unknown states count as in progress, their text in `serviceState`. A run
 * unfinished after `poll.maxPollMs` fails with `SpellPollLimitError` carrying its id. For
 * `visibilityGraceMs` after the first poll, a 404 counts as "not visible yet" (in progress):
 * a poll host may lag behind the host that started the run.
 *
 * ## Example
 * ```ts
 * pollRun(api, 42, {}, asyncScheduler).subscribe((s) => console.log(s.state));
 * ```
 * @internal
 */
export function pollRun(
  api: SpellRunEndpoints,
  runId: string | number,
  poll: PollOptions,
  scheduler: SchedulerLike,
  schedule?: PollSchedule,
  visibilityGraceMs = 0
): Observable<RunSnapshot> {
  return defer(() => {
    const visibleBy = scheduler.now() + visibilityGraceMs;
    // api.getRun is cold: every re-subscription by the poll is a new request.
    return api
      .getRun(runId)
      .pipe(
        catchError((error: unknown) =>
          error instanceof SpellHttpError && error.status === 404 && scheduler.now() < visibleBy
            ? of<RunAnswer>({ state: "inProgress", outputs: {} })
            : throwError(() => error)
        )
      );
  }).pipe(
    map((answer): RunSnapshot => {
      const serviceState = serviceStateOf(answer.state);
      const state = toRunState(answer.state);
      return serviceState === undefined
        ? { runId, state, outputs: answer.outputs }
        : { runId, state, serviceState, outputs: answer.outputs };
    }),
    pollUntilDone((snapshot) => snapshot.state !== "inProgress", poll, scheduler, {
      schedule,
      limitError: (last, elapsedMs) =>
        new SpellPollLimitError({
          runId,
          elapsedMs,
          limitMs: poll.maxPollMs ?? DEFAULT_POLL.maxPollMs,
          lastState: last.serviceState ?? last.state,
        }),
    })
  );
}

/**
 * How one polled run is timed: the schedule of its polls (the fixed one when absent) and who
 * learns its duration.
 *
 * ## Example
 * ```ts
 * const timing: RunTiming = { schedule: expectedEndSchedule(expected, poll), onDuration: (ms) => durations.record(spellId, ms) };
 * ```
 * @internal
 */
export interface RunTiming {
  schedule?: PollSchedule;
  /** Called once with the measured duration when the run succeeds (see `measureRunDuration`). */
  onDuration?: (durationMs: number) => void;
}

/**
 * Polling mode: start with `wait: false`, emit `inProgress` with the run id at once, then poll
 * (a 404 within `poll.runVisibilityGraceMs` of the start's answer means "not visible yet").
 *
 * ## Example
 * ```ts
 * startAndPollRun(api, "sleep", { ms: 5000 }, {}, asyncScheduler).subscribe(console.log);
 * ```
 * @internal
 */
export function startAndPollRun(
  api: SpellRunEndpoints,
  spellId: string,
  inputs: Record<string, unknown>,
  poll: PollOptions,
  scheduler: SchedulerLike,
  timing: RunTiming = {}
): Observable<RunSnapshot> {
  const onDuration = timing.onDuration;
  return defer(() => api.startPolling(spellId, inputs)).pipe(
    mergeMap((runId) =>
      concat(
        of<RunSnapshot>({ runId, state: "inProgress", outputs: {} }),
        onDuration
          ? pollRun(api, runId, poll, scheduler, timing.schedule, visibilityGraceOf(poll)).pipe(
              measureRunDuration(scheduler, onDuration)
            )
          : pollRun(api, runId, poll, scheduler, timing.schedule, visibilityGraceOf(poll))
      )
    ),
    onStateChanges()
  );
}
