// Poll timing in virtual time: the core's own polling pipeline (startAndPollRun, the duration
// estimator, the schedules, exactly as SpellClient wires them through pollScheduleFor) against a
// simulated service on rxjs's VirtualTimeScheduler, so a minute of runs costs milliseconds and
// the figures do not depend on the machine's load. Every request takes ROUND_TRIP_MS; the
// service reads the run's state half way through it.
import { delay, map, timer, VirtualTimeScheduler, type Observable } from "rxjs";
import type { SpellEndpoints } from "../src/http/SpellApi.js";
import type { RunAnswer } from "../src/http/parseResponses.js";
import { pollScheduleFor } from "../src/runs/pollScheduleFor.js";
import { RunDurationEstimator } from "../src/runs/RunDurationEstimator.js";
import { startAndPollRun } from "../src/runs/runSnapshots.js";
import { DEFAULT_POLL } from "../src/operators/pollUntilDone.js";

/** Virtual round trip of each request. */
export const ROUND_TRIP_MS = 20;

/** The figures of one run: how late its end was seen, after how many polls. */
export interface RunTiming {
  durationMs: number;
  lateMs: number;
  polls: number;
}

/**
 * Runs one spell `durations.length` times, one run after the other, through one client that
 * learns (`learn` true) or through clients that never learn (the fixed schedule).
 */
export function simulateRuns(durations: number[], learn: boolean): RunTiming[] {
  const scheduler = new VirtualTimeScheduler(undefined, Infinity);
  let estimator = new RunDurationEstimator();
  let runEndsAt = 0;
  let polls = 0;
  // The answer leaves the service half way through the round trip, when it is decided.
  const answerAfterRoundTrip = <T>(decide: () => T): Observable<T> =>
    timer(ROUND_TRIP_MS / 2, scheduler).pipe(map(decide), delay(ROUND_TRIP_MS / 2, scheduler));
  const api = {
    startPolling: () => answerAfterRoundTrip(() => "run"),
    getRun: () =>
      answerAfterRoundTrip((): RunAnswer => {
        polls++;
        return { state: scheduler.now() >= runEndsAt ? "success" : "inProgress", outputs: {} };
      }),
  } as unknown as SpellEndpoints;

  const results: RunTiming[] = [];
  for (const durationMs of durations) {
    if (!learn) estimator = new RunDurationEstimator();
    const startedAt = scheduler.now();
    runEndsAt = startedAt + ROUND_TRIP_MS / 2 + durationMs;
    polls = 0;
    let seenAt = Number.NaN;
    startAndPollRun(api, "spell", {}, DEFAULT_POLL, scheduler, {
      schedule: pollScheduleFor(estimator, "spell", undefined, DEFAULT_POLL),
      onDuration: (ms) => estimator.record("spell", ms),
    }).subscribe({ complete: () => (seenAt = scheduler.now()) });
    scheduler.flush();
    results.push({ durationMs, lateMs: seenAt - startedAt - durationMs, polls });
  }
  return results;
}
