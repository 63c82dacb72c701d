import { defer } from "rxjs";
import { expectedEndSchedule } from "../../src/operators/expectedEndSchedule.js";
import { pollUntilDone, DEFAULT_POLL } from "../../src/operators/pollUntilDone.js";
import type { PollSchedule } from "../../src/operators/backoffSchedule.js";
import { createTestScheduler } from "./support/testScheduler.js";

/** The times of the polls a schedule asks for, answers taking no time, up to `untilMs`. */
function pollTimes(schedule: PollSchedule, untilMs: number): number[] {
  const times: number[] = [];
  let now = 0;
  for (let answers = 0; now < untilMs; answers++) {
    now += schedule({ answers, elapsedMs: now });
    times.push(Math.round(now));
  }
  return times;
}

describe("expectedEndSchedule", () => {
  it("should poll once at half the window's start, then densely through a narrow window", () => {
    const schedule = expectedEndSchedule({ lowMs: 9200, highMs: 10_800 }, DEFAULT_POLL);
    expect(pollTimes(schedule, 10_790)).toEqual([4600, 9200, 9576, 9968, 10_376, 10_800]);
  });

  it("should poll every 10 % of the elapsed time after the window, at most maxIntervalMs apart", () => {
    const schedule = expectedEndSchedule({ lowMs: 1000, highMs: 1000 }, DEFAULT_POLL);
    expect(pollTimes(schedule, 2000)).toEqual([
      500, 1000, 1100, 1210, 1331, 1464, 1611, 1772, 1949, 2144,
    ]);
    const long = expectedEndSchedule(
      { lowMs: 60_000, highMs: 60_000 },
      { ...DEFAULT_POLL, maxIntervalMs: 4000 }
    );
    expect(long({ answers: 3, elapsedMs: 100_000 })).toBe(4000);
  });

  it("should spend at most 7 polls on a wide window, without the early poll", () => {
    const schedule = expectedEndSchedule({ lowMs: 5000, highMs: 15_000 }, DEFAULT_POLL);
    const times = pollTimes(schedule, 15_000);
    expect(times[0]).toBe(5000);
    expect(times.filter((time) => time >= 5000 && time < 15_000).length).toBeLessThanOrEqual(7);
  });

  it("should never poll less than 100 ms apart, nor skip the early poll's floor", () => {
    const schedule = expectedEndSchedule({ lowMs: 300, highMs: 330 }, DEFAULT_POLL);
    // Half of 300 ms is under initialDelayMs (250): no early poll.
    expect(pollTimes(schedule, 500)).toEqual([300, 400, 500]);
    const tiny = expectedEndSchedule({ lowMs: 0, highMs: 20 }, DEFAULT_POLL);
    expect(pollTimes(tiny, 300)).toEqual([100, 200, 300]);
  });

  it("should drive pollUntilDone: sparse before the expected end, dense around it", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      let answers = 0;
      const request = cold("-a|", { a: "x" });
      const polled = defer(() => request).pipe(
        pollUntilDone(() => ++answers === 4, DEFAULT_POLL, undefined, {
          schedule: expectedEndSchedule({ lowMs: 1000, highMs: 1000 }, DEFAULT_POLL),
        })
      );
      // polls at 500, 1000, then 10 % of the elapsed time after the (exact) expected end
      expectObservable(polled).toBe("501ms a 499ms a 100ms a 110ms (a|)", { a: "x" });
      expectSubscriptions(request.subscriptions).toBe([
        "500ms ^!",
        "1000ms ^!",
        "1101ms ^!",
        "1212ms ^!",
      ]);
    });
  });
});
