import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import { SpellTimeoutError } from "../../src/errors/SpellTimeoutError.js";
import { pollRun, startAndPollRun, waitRun } from "../../src/internal/runSnapshots.js";
import type { RunAnswer } from "../../src/internal/parseResponses.js";
import { fakeEndpoints } from "./support/fakeEndpoints.js";
import { marbles } from "./support/testScheduler.js";

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

  it("should keep polling through an unknown state, shown as inProgress", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers: RunAnswer[] = [
        { state: "queued", outputs: {} },
        { state: "warmingUp", outputs: {} },
        success,
      ];
      let index = 0;
      const api = fakeEndpoints({
        startPolling: () => cold("-r|", { r: 1 }),
        getRun: () => cold("-a|", { a: answers[index++] }),
      });
      expectObservable(startAndPollRun(api, "x", {}, poll, scheduler)).toBe("-a----------(b|)", {
        a: { runId: 1, state: "inProgress", outputs: {} },
        b: { runId: 1, state: "success", outputs: { summary: "ok" } },
      });
    });
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
