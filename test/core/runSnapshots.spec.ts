import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { defer, tap } from "rxjs";
import { SpellPollLimitError } from "../../src/errors/SpellPollLimitError.js";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import { SpellTimeoutError } from "../../src/errors/SpellTimeoutError.js";
import { pollRun, startAndPollRun, waitRun } from "../../src/runs/runSnapshots.js";
import { parseWaitAnswer, type RunAnswer } from "../../src/http/parseResponses.js";
import { fakeEndpoints } from "./support/fakeEndpoints.js";
import { marbles } from "./support/testScheduler.js";

/** Records the error an Observable ends with, passing everything through. */
function tapError<T>(record: (error: unknown) => void) {
  return tap<T>({ error: record });
}

const poll = { initialDelayMs: 2, intervalMs: 3, growth: 1, maxIntervalMs: 3 };
const inProgress: RunAnswer = { state: "inProgress", outputs: {} };
const success: RunAnswer = { state: "success", outputs: { summary: "ok" } };

describe("waitRun", () => {
  it("should emit one success snapshot and complete", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const api = fakeEndpoints({
        startAndWait: () => cold("---a|", { a: { outputs: { x: 1 } } }),
      });
      expectObservable(waitRun(api, "echo", { x: 1 }, 100, scheduler)).toBe("---a|", {
        a: { state: "success", outputs: { x: 1 } },
      });
    });
  });

  it("should fail with SpellRunError when the body reports another state", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const api = fakeEndpoints({
        startAndWait: () => cold("-a|", { a: { state: "failure", outputs: { reason: "no" } } }),
      });
      expectObservable(waitRun(api, "x", {}, 100, scheduler)).toBe(
        "-#",
        undefined,
        new SpellRunError("failure", { reason: "no" })
      );
    });
  });

  it("should name the run id in a wait-mode failure when the service gave one, as polling does", () => {
    const request = { method: "POST" as const, endpoint: "start" as const, url: "http://x/" };
    for (const [body, message] of [
      [
        { runId: "run-7", state: "failure", outputs: { reason: "no" } },
        'Spell run run-7 ended in state "failure": no',
      ],
      [
        { runId: 8, state: "cancelled", outputs: {} },
        'Spell run 8 ended in state "error" ("cancelled")',
      ],
      [{ state: "failure", outputs: { reason: "no" } }, 'Spell run ended in state "failure": no'],
    ] as const) {
      let error: unknown;
      marbles(({ cold, expectObservable }, scheduler) => {
        const api = fakeEndpoints({
          startAndWait: () => cold("-a|", { a: parseWaitAnswer(body, request) }),
        });
        expectObservable(
          waitRun(api, "x", {}, 100, scheduler).pipe(tapError((caught) => (error = caught)))
        ).toBe("-#", undefined, jasmine.any(SpellRunError));
      });
      expect(error).toEqual(jasmine.any(SpellRunError));
      expect((error as SpellRunError).message).toBe(message);
      expect((error as SpellRunError).runId).toBe("runId" in body ? body.runId : undefined);
    }
  });

  it("should fail with SpellRunError when the body has no outputs", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const api = fakeEndpoints({ startAndWait: () => cold("-a|", { a: {} }) });
      expectObservable(waitRun(api, "x", {}, 100, scheduler)).toBe(
        "-#",
        undefined,
        new SpellRunError(
          "error",
          {},
          undefined,
          'POST /spells/start (wait mode) answered without "outputs"'
        )
      );
    });
  });

  it("should time out, abort the request and say to use polling", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const start = cold("-------a|", { a: { outputs: {} } });
      const api = fakeEndpoints({ startAndWait: () => start });
      const timeoutError = new SpellTimeoutError("POST", "start", 5);
      expectObservable(waitRun(api, "x", {}, 5, scheduler)).toBe("-----#", undefined, timeoutError);
      expectSubscriptions(start.subscriptions).toBe("^----!");
      expect(timeoutError.message).toContain("{ wait: false }");
    });
  });
});

describe("startAndPollRun", () => {
  it("should emit inProgress with the run id at once, then only changes of state, completing after success", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers = [inProgress, inProgress, success];
      let index = 0;
      api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 7 }),
        getRun: () => cold("-a|", { a: answers[index++] }),
      });
      // start answers at 1; polls answer at 4, 8, 12
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe("-a----------(b|)", {
        a: { runId: 7, state: "inProgress", outputs: {} },
        b: { runId: 7, state: "success", outputs: { summary: "ok" } },
      });
    });
    expect(api.calls.getRun).toEqual([7, 7, 7]);
  });

  it("should fail with SpellRunError carrying state, runId and outputs on failure or error", () => {
    for (const state of ["failure", "error"] as const) {
      marbles(({ cold, expectObservable }, scheduler) => {
        const api = fakeEndpoints({
          startPolling: () => cold("-r|", { r: "run-1" }),
          getRun: () => cold("-a|", { a: { state, outputs: { reason: "bad" } } }),
        });
        expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe(
          "-a--#",
          { a: { runId: "run-1", state: "inProgress", outputs: {} } },
          new SpellRunError(state, { reason: "bad" }, "run-1")
        );
      });
    }
  });

  it("should keep polling through unknown states, shown as inProgress with the service's text", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers: RunAnswer[] = [
        { state: "queued", outputs: {} },
        { state: "queued", outputs: {} },
        { state: "warmingUp", outputs: {} },
        success,
      ];
      let index = 0;
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 1 }),
        getRun: () => cold("-a|", { a: answers[index++] }),
      });
      // polls answer at 4, 8, 12, 16; the repeated "queued" is not emitted again
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe(
        "-a--b-------c---(d|)",
        {
          a: { runId: 1, state: "inProgress", outputs: {} },
          b: { runId: 1, state: "inProgress", serviceState: "queued", outputs: {} },
          c: { runId: 1, state: "inProgress", serviceState: "warmingUp", outputs: {} },
          d: { runId: 1, state: "success", outputs: { summary: "ok" } },
        }
      );
    });
  });

  it("should compare states without case", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers: RunAnswer[] = [
        { state: "INPROGRESS", outputs: {} },
        { state: "SUCCESS", outputs: { summary: "ok" } },
      ];
      let index = 0;
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 1 }),
        getRun: () => cold("-a|", { a: answers[index++] }),
      });
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe("-a--b---(c|)", {
        a: { runId: 1, state: "inProgress", outputs: {} },
        b: { runId: 1, state: "inProgress", serviceState: "INPROGRESS", outputs: {} },
        c: { runId: 1, state: "success", serviceState: "SUCCESS", outputs: { summary: "ok" } },
      });
    });
  });

  it("should end a cancelled run as error, keeping the reason and the service's word", () => {
    for (const word of ["cancelled", "Canceled"]) {
      marbles(({ cold, expectObservable }, scheduler) => {
        const api = fakeEndpoints({
          startPolling: () => cold("-r|", { r: "run-1" }),
          getRun: () => cold("-a|", { a: { state: word, outputs: { reason: "by admin" } } }),
        });
        const expected = new SpellRunError(
          "error",
          { reason: "by admin" },
          "run-1",
          `Spell run run-1 ended in state "error" ("${word}")`
        );
        expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe(
          "-a--#",
          { a: { runId: "run-1", state: "inProgress", outputs: {} } },
          expected
        );
      });
    }
  });

  it("should give up after maxPollMs with SpellPollLimitError carrying the run id", () => {
    let error: unknown;
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const getRun = cold("-a|", { a: { state: "queued", outputs: {} } });
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 9 }),
        getRun: () => getRun,
      });
      // polling starts at 1: polls at 3, 7, 11 (moved from 12 to the limit 1 + 10), then the error
      const run$ = startAndPollRun(api, "x", {}, { ...poll, maxPollMs: 10 }, scheduler);
      expectObservable(run$.pipe(tapError((caught) => (error = caught)))).toBe(
        "-a--b-------#",
        {
          a: { runId: 9, state: "inProgress", outputs: {} },
          b: { runId: 9, state: "inProgress", serviceState: "queued", outputs: {} },
        },
        jasmine.any(SpellPollLimitError)
      );
      expectSubscriptions(getRun.subscriptions).toBe(["3ms ^!", "7ms ^!", "11ms ^!"]);
    });
    expect(error).toEqual(jasmine.any(SpellPollLimitError));
    const limit = error as SpellPollLimitError;
    expect([limit.runId, limit.lastState, limit.limitMs, limit.elapsedMs]).toEqual([
      9,
      "queued",
      10,
      11,
    ]);
    expect(limit.message).toContain('last state "queued"');
  });

  it("should poll on the given schedule and report the run's measured duration", () => {
    const durations: number[] = [];
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers = [inProgress, inProgress, success];
      let index = 0;
      const getRun = defer(() => cold("-a|", { a: answers[index++] }));
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 7 }),
        getRun: () => getRun,
      });
      // start answers at 1; the schedule asks for 10, then 2, then 2: answers at 12, 15, 18
      const run$ = startAndPollRun(api, "x", {}, poll, scheduler, {
        schedule: ({ answers: count }) => (count === 0 ? 10 : 2),
        onDuration: (ms) => durations.push(ms),
      });
      expectObservable(run$).toBe("-a----------------(b|)", {
        a: { runId: 7, state: "inProgress", outputs: {} },
        b: { runId: 7, state: "success", outputs: { summary: "ok" } },
      });
    });
    // last unfinished answer at 15, success at 18, start answered at 1: (15 + 18) / 2 − 1
    expect(durations).toEqual([15.5]);
  });

  it("should not poll when start fails", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      const unauthorized = new SpellHttpError(401, {}, "POST", "start");
      api = fakeEndpoints({ startPolling: () => cold("-#", undefined, unauthorized) });
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe(
        "-#",
        undefined,
        unauthorized
      );
    });
    expect(api.calls.startPolling.length).toBe(1);
    expect(api.calls.getRun).toEqual([]);
  });

  it("should stop polling on unsubscribe", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const getRun = cold("-a|", { a: inProgress });
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 1 }),
        getRun: () => getRun,
      });
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler), "^ 8ms !").toBe("-a", {
        a: { runId: 1, state: "inProgress", outputs: {} },
      });
      expectSubscriptions(getRun.subscriptions).toBe(["3ms ^!", "7ms ^ !"]);
    });
  });
});

describe("pollRun", () => {
  it("should poll a run id without starting anything", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      api = fakeEndpoints({ getRun: () => cold("-a|", { a: success }) });
      expectObservable(pollRun(api, "r", { ...poll, initialDelayMs: 0 }, scheduler)).toBe("-(a|)", {
        a: { runId: "r", state: "success", outputs: { summary: "ok" } },
      });
    });
    expect(api.calls.getRun).toEqual(["r"]);
    expect(api.calls.startPolling).toEqual([]);
  });
});
