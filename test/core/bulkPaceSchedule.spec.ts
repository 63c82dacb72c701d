import { asyncScheduler, defer } from "rxjs";
import { backoffSchedule } from "../../src/operators/backoffSchedule.js";
import { bulkPaceSchedule } from "../../src/operators/bulkPaceSchedule.js";
import { DEFAULT_POLL, pollUntilDone } from "../../src/operators/pollUntilDone.js";
import { createTestScheduler } from "./support/testScheduler.js";

/**
 * A group of `size` runs going `concurrency` at a time, each about `runMs` long (±20 % by index),
 * as the emulator runs them: when it ends, and the runs finished at `t`.
 */
function group(size: number, concurrency: number, runMs: number) {
  const workers = new Array<number>(Math.min(concurrency, size)).fill(0);
  const ends: number[] = [];
  for (let index = 0; index < size; index++) {
    const free = workers.indexOf(Math.min(...workers));
    workers[free] += runMs * (0.8 + 0.4 * ((index * 0.6180339887) % 1));
    ends.push(workers[free]);
  }
  return {
    endMs: Math.max(...ends),
    finishedAt: (t: number) => ends.filter((end) => end <= t).length,
  };
}

/** Polls of a schedule over a group, answers taking no time: when the end was seen, and how many. */
function follow(size: number, concurrency: number, runMs: number, pace: boolean) {
  const { endMs, finishedAt } = group(size, concurrency, runMs);
  const schedule = pace ? bulkPaceSchedule(size, DEFAULT_POLL) : undefined;
  const fixed = backoffSchedule(DEFAULT_POLL);
  let now = 0;
  let polls = 0;
  for (let answers = 0; polls < 100; answers++) {
    now += (schedule?.schedule ?? fixed)({ answers, elapsedMs: now });
    polls++;
    const finished = finishedAt(now);
    schedule?.observe({ elapsedMs: now, finished });
    if (finished >= size) break;
  }
  return { endMs, seenMs: now, delayMs: now - endMs, polls };
}

describe("bulkPaceSchedule", () => {
  const groups: [string, number, number, number][] = [
    ["500 runs, 50 at a time, 230 ms each (a 2.3 s group)", 500, 50, 230],
    ["100 runs, 50 at a time, 300 ms each", 100, 50, 300],
    ["500 runs, 50 at a time, 1.2 s each (a 12 s group)", 500, 50, 1200],
    ["500 runs, 20 at a time, 400 ms each (a 10 s group)", 500, 20, 400],
  ];
  for (const [name, size, concurrency, runMs] of groups) {
    it(`should see the end of ${name} within max(300 ms, 10 %) in at most 8 polls`, () => {
      const after = follow(size, concurrency, runMs, true);
      expect(after.delayMs).toBeGreaterThanOrEqual(0);
      expect(after.delayMs).toBeLessThanOrEqual(Math.max(300, 0.1 * after.endMs));
      expect(after.polls).toBeLessThanOrEqual(8);
    });
  }

  it("should see a 2.3 s group sooner than the doubling schedule, which sees it at 4 s", () => {
    const before = follow(500, 50, 230, false);
    const after = follow(500, 50, 230, true);
    expect(before.seenMs).toBe(4000);
    expect(after.seenMs).toBeLessThan(2600);
  });

  it("should wait as the fixed schedule does while no run has finished, never longer than the time elapsed", () => {
    const { schedule } = bulkPaceSchedule(500, { ...DEFAULT_POLL, growth: 4 });
    expect(schedule({ answers: 0, elapsedMs: 0 })).toBe(250);
    expect(schedule({ answers: 1, elapsedMs: 250 })).toBe(250);
    // The fixed schedule would wait 1 s (250 × 4) at 500 ms.
    expect(schedule({ answers: 2, elapsedMs: 500 })).toBe(500);
  });

  it("should go part of the way while the end is far, just after it when near, and every 10 % past it", () => {
    const pace = bulkPaceSchedule(500, DEFAULT_POLL);
    pace.observe({ elapsedMs: 1000, finished: 100 });
    // 100 runs a second: the end is expected at 5 s, far; from one answer only, at most the
    // time elapsed.
    expect(pace.schedule({ answers: 2, elapsedMs: 1000 })).toBe(1000);
    pace.observe({ elapsedMs: 4000, finished: 400 });
    // Same pace, 1 s left (within twice the 500 ms slack): just after the end (+15 % of it).
    expect(pace.schedule({ answers: 3, elapsedMs: 4000 })).toBe(1075);
    // Past it: 10 % of the elapsed time, at most the slack.
    expect(pace.schedule({ answers: 4, elapsedMs: 6000 })).toBe(500);
  });

  it("should keep within the client's bounds (a fast test client polls every 20 ms)", () => {
    const fast = { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 };
    const pace = bulkPaceSchedule(500, fast);
    pace.observe({ elapsedMs: 100, finished: 10 });
    expect(pace.schedule({ answers: 5, elapsedMs: 100 })).toBe(20);
  });

  it("should drive pollUntilDone (marbles): a 2.4 s group seen 23 ms after its end, in 5 polls", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const { endMs, finishedAt } = group(500, 50, 230);
      expect(Math.round(endMs)).toBe(2435);
      const pace = bulkPaceSchedule(500, DEFAULT_POLL);
      // Each answer: the runs finished when the poll was sent (the test scheduler's clock).
      const answer$ = defer(() => {
        const finished = finishedAt(asyncScheduler.now());
        pace.observe({ elapsedMs: asyncScheduler.now(), finished });
        return cold("(a|)", { a: finished });
      });
      const polled = answer$.pipe(
        pollUntilDone((finished) => finished >= 500, DEFAULT_POLL, undefined, {
          schedule: pace.schedule,
        })
      );
      // 250 ms: 37 finished (pace from the start); 500 ms: 93 (pace 224/s, end ≈ 2.4 s, far:
      // at most the time elapsed); 1.5 s; 2.17 s (near: just after the predicted end); 2.458 s.
      expectObservable(polled).toBe("250ms a 249ms b 999ms c 669ms d 287ms (e|)", {
        a: 37,
        b: 93,
        c: 301,
        d: 447,
        e: 500,
      });
    });
  });
});
