import { type Observable } from "rxjs";
import type { TestScheduler } from "rxjs/testing";
import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import type { BulkContext } from "../../src/runs/bulkSnapshots.js";
import { ConcurrencyLimiter } from "../../src/util/ConcurrencyLimiter.js";
import { RunBatcher } from "../../src/runs/RunBatcher.js";
import type { SpellEndpoints } from "../../src/http/SpellApi.js";
import type { RunAnswer } from "../../src/http/parseResponses.js";
import type { RunSnapshot } from "../../src/types.js";
import { fakeEndpoints } from "./support/fakeEndpoints.js";
import { marbles } from "./support/testScheduler.js";

function context(
  api: SpellEndpoints,
  scheduler: TestScheduler,
  limiter = new ConcurrencyLimiter(8)
): BulkContext {
  return {
    api,
    limiter,
    // Polls 2 frames after bulkStart answers, then every 3 frames.
    poll: { initialDelayMs: 2, intervalMs: 3, growth: 1, maxIntervalMs: 3 },
    retry: { limit: 2, baseDelayMs: 5, jitter: 0 },
    scheduler,
    visibilityGraceMs: 10,
    afterUnsubscribeMs: 20,
  };
}

/** Echo answers: each row's outputs are its inputs, in the state given per row. */
function echoRuns(
  inputs: readonly Record<string, unknown>[],
  state: (row: Record<string, unknown>) => string
): RunAnswer[] {
  return inputs.map((row) => ({
    state: state(row),
    outputs: state(row) === "inProgress" ? {} : row,
  }));
}

const i: RunSnapshot = { state: "inProgress", outputs: {} };
function s(outputs: Record<string, unknown>): RunSnapshot {
  return { state: "success", outputs };
}

describe("RunBatcher", () => {
  it("should send the calls of one window as one bulkStart and give each caller its own row", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      let sent: readonly Record<string, unknown>[] = [];
      api = fakeEndpoints({
        bulkStartOnce: (_spell, inputs) => {
          sent = inputs;
          return cold("-g|", { g: "G1" });
        },
        getBulkRuns: () => cold("-r|", { r: echoRuns(sent, () => "success") }),
      });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 5, maxSize: 100 });
      // a at 0, b at 2, c at 4: the window closes at 5, bulkStart answers at 6, the poll at 9.
      expectObservable(batcher.run("echo", { n: "a" })).toBe("------i--(s|)", {
        i,
        s: s({ n: "a" }),
      });
      expectObservable(batcher.run("echo", { n: "b" }), "--^").toBe("------i--(s|)", {
        i,
        s: s({ n: "b" }),
      });
      expectObservable(batcher.run("echo", { n: "c" }), "----^").toBe("------i--(s|)", {
        i,
        s: s({ n: "c" }),
      });
      // A call after the window is the next batch.
      expectObservable(batcher.run("echo", { n: "d" }), "------^").toBe("------------i--(s|)", {
        i,
        s: s({ n: "d" }),
      });
    });
    expect(api.calls.bulkStartOnce.map(([, inputs]) => inputs)).toEqual([
      [{ n: "a" }, { n: "b" }, { n: "c" }],
      [{ n: "d" }],
    ]);
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should close a batch at once when it holds maxSize calls, one limiter slot per batch", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    const limiter = new ConcurrencyLimiter(1);
    marbles(({ cold, expectObservable }, scheduler) => {
      const sent = new Map<string, readonly Record<string, unknown>[]>();
      let started = 0;
      api = fakeEndpoints({
        bulkStartOnce: (_spell, inputs) => {
          const id = `G${++started}`;
          sent.set(id, inputs);
          return cold("-g|", { g: id });
        },
        getBulkRuns: (id) => cold("-r|", { r: echoRuns(sent.get(id) ?? [], () => "success") }),
      });
      const batcher = new RunBatcher(() => context(api, scheduler, limiter), {
        windowMs: 50,
        maxSize: 2,
      });
      // 5 calls at 0: batches [0,1] and [2,3] close at once, [4] at 50. One slot: each waits for the previous.
      const outs = [0, 1, 2, 3, 4].map((n) => batcher.run("echo", { n }));
      expectObservable(outs[0]).toBe("-i--(s|)", { i, s: s({ n: 0 }) });
      expectObservable(outs[1]).toBe("-i--(s|)", { i, s: s({ n: 1 }) });
      expectObservable(outs[2]).toBe("-----i--(s|)", { i, s: s({ n: 2 }) });
      expectObservable(outs[3]).toBe("-----i--(s|)", { i, s: s({ n: 3 }) });
      expectObservable(outs[4]).toBe(`${"-".repeat(51)}i--(s|)`, { i, s: s({ n: 4 }) });
    });
    expect(api.calls.bulkStartOnce.map(([, inputs]) => inputs.length)).toEqual([2, 2, 1]);
  });

  it("should end each caller with its own result or its own SpellRunError", () => {
    const results: Record<string, unknown> = {};
    marbles(({ cold }, scheduler) => {
      let sent: readonly Record<string, unknown>[] = [];
      const api = fakeEndpoints({
        bulkStartOnce: (_spell, inputs) => {
          sent = inputs;
          return cold("-g|", { g: "G1" });
        },
        getBulkRuns: () =>
          cold("-r|", { r: echoRuns(sent, (row) => (row.n === "bad" ? "failure" : "success")) }),
      });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 1, maxSize: 10 });
      for (const n of ["ok", "bad", "fine"]) {
        batcher.run("echo", { n }).subscribe({
          next: (snapshot) => (results[n] = snapshot.outputs),
          error: (error: unknown) => (results[n] = error),
        });
      }
    });
    expect(results.ok).toEqual({ n: "ok" });
    expect(results.fine).toEqual({ n: "fine" });
    expect(results.bad).toBeInstanceOf(SpellRunError);
    expect((results.bad as SpellRunError).state).toBe("failure");
  });

  it("should give a refused bulkStart to every caller of the batch", () => {
    const errors: unknown[] = [];
    marbles(({ cold }, scheduler) => {
      const api = fakeEndpoints({
        bulkStartOnce: () =>
          cold("-#", undefined, new SpellHttpError(400, { error: "bad" }, "POST", "bulkStart")),
      });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 1, maxSize: 10 });
      batcher.run("echo", { n: 1 }).subscribe({ error: (error: unknown) => errors.push(error) });
      batcher.run("echo", { n: 2 }).subscribe({ error: (error: unknown) => errors.push(error) });
    });
    expect(errors.length).toBe(2);
    expect(errors.every((error) => error instanceof SpellHttpError)).toBeTrue();
  });

  it("should keep the others running when one caller leaves, and cancel once when all have left", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      let sent: readonly Record<string, unknown>[] = [];
      api = fakeEndpoints({
        bulkStartOnce: (_spell, inputs) => {
          sent = inputs;
          return cold("-g|", { g: "G1" });
        },
        getBulkRuns: () => cold("-r|", { r: echoRuns(sent, () => "inProgress") }),
        cancelBulk: () => cold<void>("-c|", { c: undefined }),
      });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 1, maxSize: 10 });
      const a$: Observable<RunSnapshot> = batcher.run("echo", { n: "a" });
      const b$: Observable<RunSnapshot> = batcher.run("echo", { n: "b" });
      expectObservable(a$, "^---!").toBe("--i-", { i });
      expectObservable(b$, "^---------!").toBe("--i-------", { i });
      scheduler.schedule(() => expect(api.calls.cancelBulk).toEqual([]), 9);
    });
    expect(api.calls.bulkStartOnce.length).toBe(1);
    expect(api.calls.cancelBulk).toEqual(["G1"]);
  });

  it("should send nothing for callers that left before the window closed", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      api = fakeEndpoints({ bulkStartOnce: () => cold("-g|", { g: "G1" }) });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 5, maxSize: 10 });
      expectObservable(batcher.run("echo", { n: "a" }), "^-!").toBe("---");
      expectObservable(batcher.run("echo", { n: "b" }), "^--!").toBe("----");
      expectObservable(batcher.run("echo", { n: "c" }), "^---------!").toBe("------i----", { i });
    });
    expect(api.calls.bulkStartOnce.map(([, inputs]) => inputs)).toEqual([[{ n: "c" }]]);
  });

  it("should start nothing when every caller left before the window closed", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ expectObservable }, scheduler) => {
      api = fakeEndpoints({});
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 5, maxSize: 10 });
      expectObservable(batcher.run("echo", { n: "a" }), "^-!").toBe("---");
      expectObservable(batcher.run("echo", { n: "b" }), "^--!").toBe("----");
    });
    expect(api.calls.bulkStartOnce).toEqual([]);
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should batch per spell", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold }, scheduler) => {
      api = fakeEndpoints({ bulkStartOnce: () => cold("-g|", { g: "G" }) });
      const batcher = new RunBatcher(() => context(api, scheduler), { windowMs: 2, maxSize: 10 });
      batcher.run("echo", { n: 1 }).subscribe();
      batcher.run("summarize", { text: "x" }).subscribe();
      batcher.run("echo", { n: 2 }).subscribe();
      scheduler.schedule(() => undefined, 5);
    });
    expect(api.calls.bulkStartOnce.map(([spell, inputs]) => [spell, inputs.length])).toEqual([
      ["echo", 2],
      ["summarize", 1],
    ]);
  });
});
