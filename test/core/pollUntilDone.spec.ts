import { defer, map } from "rxjs";
import { pollIntervalMs, pollUntilDone, DEFAULT_POLL } from "../../src/operators/pollUntilDone.js";
import { createTestScheduler } from "./support/testScheduler.js";

describe("pollUntilDone", () => {
  const timing = { initialDelayMs: 3, intervalMs: 2, growth: 2, maxIntervalMs: 5 };

  it("should poll after the initial delay, then at growing intervals capped at the maximum", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-a|", { a: 0 });
      let answers = 0;
      const polled = defer(() => request).pipe(pollUntilDone(() => ++answers === 5, timing));
      // subscribe at 3, answer at 4, +2 → 6/7, +4 → 11/12, +5 (capped from 8) → 17/18, +5 → 23/24
      expectObservable(polled).toBe("4ms a 2ms a 4ms a 5ms a 5ms (a|)", { a: 0 });
      expectSubscriptions(request.subscriptions).toBe([
        "3ms ^!",
        "6ms ^!",
        "11ms ^!",
        "17ms ^!",
        "23ms ^!",
      ]);
    });
  });

  it("should schedule the next poll only after the previous answer (no overlap)", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // A slow answer (10 frames) delays every later poll by as much.
      const request = cold("----------a|", { a: "x" });
      let answers = 0;
      const polled = request.pipe(pollUntilDone(() => ++answers === 3, timing));
      expectObservable(polled).toBe("13ms a 11ms a 13ms (a|)", { a: "x" });
      expectSubscriptions(request.subscriptions).toBe([
        "3ms ^ 9ms !",
        "15ms ^ 9ms !",
        "29ms ^ 9ms !",
      ]);
    });
  });

  it("should emit every answer and complete right after the done one", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const states = ["inProgress", "inProgress", "success"];
      let index = 0;
      const polled = defer(() => cold("-s|", { s: states[index++] })).pipe(
        pollUntilDone((state) => state === "success", timing)
      );
      expectObservable(polled).toBe("4ms a 2ms a 4ms (b|)", { a: "inProgress", b: "success" });
    });
  });

  it("should stop polling when an answer errors", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-#", undefined, new Error("boom"));
      const polled = request.pipe(pollUntilDone(() => false, timing));
      expectObservable(polled).toBe("4ms #", undefined, new Error("boom"));
      expectSubscriptions(request.subscriptions).toBe("3ms ^!");
    });
  });

  it("should stop polling and clear its timer on unsubscribe", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-a|", { a: 1 });
      const polled = request.pipe(pollUntilDone(() => false, timing));
      expectObservable(polled, "^ 8ms !").toBe("4ms a 2ms a", { a: 1 });
      expectSubscriptions(request.subscriptions).toBe(["3ms ^!", "6ms ^!"]);
    });
  });

  it("should abort a request in flight on unsubscribe", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-----a|", { a: 1 });
      const polled = request.pipe(pollUntilDone(() => false, timing));
      expectObservable(polled, "^ 5ms !").toBe("");
      expectSubscriptions(request.subscriptions).toBe("3ms ^ 2ms !");
    });
  });

  it("should stop polling when the subscriber fails while handling an answer", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-a|", { a: 1 });
      const failing = request.pipe(
        pollUntilDone(() => false, timing),
        map(() => {
          throw new Error("render failed");
        })
      );
      expectObservable(failing).toBe("4ms #", undefined, new Error("render failed"));
      expectSubscriptions(request.subscriptions).toBe("3ms ^!");
    });
  });

  it("should send the last poll at maxPollMs and then fail with the limit error", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-a|", { a: "queued" });
      const polled = request.pipe(
        pollUntilDone(() => false, { ...timing, maxPollMs: 9 }, undefined, {
          limitError: (last, elapsedMs) => new Error(`${last} after ${elapsedMs}`),
        })
      );
      // polls at 3, 6, 9 (moved from 11 to the limit); the answer at 10 is past it
      expectObservable(polled).toBe(
        "4ms a 2ms a 2ms (a#)",
        { a: "queued" },
        new Error("queued after 10")
      );
      expectSubscriptions(request.subscriptions).toBe(["3ms ^!", "6ms ^!", "9ms ^!"]);
    });
  });

  it("should not fail at the limit when the last poll is done", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      let answers = 0;
      const request = defer(() => cold("-a|", { a: ++answers }));
      const polled = request.pipe(pollUntilDone((n) => n === 3, { ...timing, maxPollMs: 9 }));
      expectObservable(polled).toBe("4ms a 2ms b 2ms (c|)", { a: 1, b: 2, c: 3 });
    });
  });

  it("should ask its schedule for every delay, with the answers so far and the time elapsed", () => {
    const ticks: Array<[number, number]> = [];
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-a|", { a: 0 });
      let answers = 0;
      const polled = request.pipe(
        pollUntilDone(() => ++answers === 3, {}, undefined, {
          schedule: (tick) => {
            ticks.push([tick.answers, tick.elapsedMs]);
            return [5, 1, 3][tick.answers];
          },
        })
      );
      expectObservable(polled).toBe("6ms a 1ms a 3ms (a|)", { a: 0 });
      expectSubscriptions(request.subscriptions).toBe(["5ms ^!", "7ms ^!", "11ms ^!"]);
    });
    expect(ticks).toEqual([
      [0, 0],
      [1, 6],
      [2, 8],
    ]);
  });

  it("should compute intervals that grow by the factor up to the cap", () => {
    const settings = { ...DEFAULT_POLL, intervalMs: 100, growth: 1.5, maxIntervalMs: 300 };
    expect([0, 1, 2, 3, 4].map((index) => pollIntervalMs(index, settings))).toEqual([
      100, 150, 225, 300, 300,
    ]);
  });
});
