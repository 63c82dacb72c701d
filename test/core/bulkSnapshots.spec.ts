import { map, tap, type Observable } from "rxjs";
import type { TestScheduler } from "rxjs/testing";
import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { SpellPollLimitError } from "../../src/errors/SpellPollLimitError.js";
import { SpellProtocolError } from "../../src/errors/SpellProtocolError.js";
import { bulkSnapshots, type BulkChunk, type BulkContext } from "../../src/runs/bulkSnapshots.js";
import { ConcurrencyLimiter } from "../../src/util/ConcurrencyLimiter.js";
import type { SpellEndpoints } from "../../src/http/SpellApi.js";
import type { BulkSnapshot } from "../../src/types.js";
import { fakeEndpoints, runs } from "./support/fakeEndpoints.js";
import { marbles } from "./support/testScheduler.js";

/** A snapshot in a few characters: "<known groups>:<pending>/<inProgress>/<success>[D]". */
function summary(snapshot: BulkSnapshot): string {
  const { pending, inProgress, success } = snapshot.counts;
  return `${snapshot.groupIds.length}:${pending}/${inProgress}/${success}${snapshot.done ? "D" : ""}`;
}

function summaries(source: Observable<BulkSnapshot>): Observable<string> {
  return source.pipe(map(summary));
}

function context(api: SpellEndpoints, scheduler: TestScheduler, maxInFlight = 8): BulkContext {
  return {
    api,
    limiter: new ConcurrencyLimiter(maxInFlight),
    // Polls 2 frames after bulkStart answers, then every 3 frames.
    poll: { initialDelayMs: 2, intervalMs: 3, growth: 1, maxIntervalMs: 3 },
    retry: { limit: 2, baseDelayMs: 5, jitter: 0 },
    scheduler,
    visibilityGraceMs: 10,
    // The background cancel after an unsubscribe ends 20 frames after it.
    afterUnsubscribeMs: 20,
  };
}

function chunked(count: number, size: number): BulkChunk[] {
  const inputs = Array.from({ length: count }, (_, index) => ({ index }));
  const chunks: BulkChunk[] = [];
  for (let start = 0; start < count; start += size) {
    const slice = inputs.slice(start, start + size);
    chunks.push({ size: slice.length, inputs: slice });
  }
  return chunks;
}

describe("bulkSnapshots", () => {
  it("should send chunks as bulkStarts in order, one at a time, and combine them into one stream", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      let started = 0;
      const sizes: Record<string, number> = { G1: 2, G2: 2, G3: 1 };
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: `G${++started}` }),
        getBulkRuns: (groupId) => cold("-r|", { r: runs(sizes[groupId], "success") }),
      });
      // starts answer at 1, 2, 3 (each waits for the previous); polls answer at 4, 5, 6
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(5, 2)))
      ).toBe("abcdef(g|)", {
        a: "0:5/0/0",
        b: "1:5/0/0",
        c: "2:5/0/0",
        d: "3:5/0/0",
        e: "3:3/0/2",
        f: "3:1/0/4",
        g: "3:0/0/5D",
      });
    });
    expect(api.calls.bulkStartOnce.map(([, inputs]) => inputs.map((row) => row.index))).toEqual([
      [0, 1],
      [2, 3],
      [4],
    ]);
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should map runs[i] to inputs[i] across chunks and carry a resume token", () => {
    let last!: BulkSnapshot;
    marbles(({ cold }, scheduler) => {
      let started = 0;
      const api = fakeEndpoints({
        bulkStartOnce: (_spell, inputs) =>
          cold("-g|", { g: `G${++started}-${String(inputs[0].index)}` }),
        getBulkRuns: (groupId) => {
          const first = Number(groupId.split("-")[1]);
          const size = first === 4 ? 1 : 2;
          const answer = Array.from({ length: size }, (_, i) => ({
            state: "success",
            outputs: { index: first + i },
          }));
          return cold("-r|", { r: answer });
        },
      });
      bulkSnapshots(context(api, scheduler), "echo", chunked(5, 2)).subscribe((s) => (last = s));
    });
    expect(last.done).toBeTrue();
    expect(last.total).toBe(5);
    expect(last.runs.map((run) => run.outputs.index)).toEqual([0, 1, 2, 3, 4]);
    expect(last.groupId).toBe("G1-0");
    expect(last.groupIds).toEqual(["G1-0", "G2-2", "G3-4"]);
    expect(last.resume).toEqual({
      spellId: "echo",
      groupIds: ["G1-0", "G2-2", "G3-4"],
      chunkSizes: [2, 2, 1],
    });
    expect(JSON.parse(JSON.stringify(last.resume))).toEqual(last.resume);
  });

  it("should put each getBulkRuns entry in the row of its echoed inputs, in any order", () => {
    let last!: BulkSnapshot;
    marbles(({ cold }, scheduler) => {
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () =>
          cold("-r|", {
            r: [2, 0, 1].map((index) => ({
              state: "success",
              outputs: { out: index },
              inputs: { index },
            })),
          }),
      });
      bulkSnapshots(context(api, scheduler), "echo", chunked(3, 3)).subscribe((s) => (last = s));
    });
    expect(last.done).toBeTrue();
    expect(last.runs.map((run) => run.outputs.out)).toEqual([0, 1, 2]);
  });

  it("should match entries by position when they carry nothing that identifies their input", () => {
    let last!: BulkSnapshot;
    marbles(({ cold }, scheduler) => {
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () =>
          cold("-r|", {
            r: [7, 8, 9].map((out) => ({ state: "success", outputs: { out } })),
          }),
      });
      bulkSnapshots(context(api, scheduler), "echo", chunked(3, 3)).subscribe((s) => (last = s));
    });
    expect(last.runs.map((run) => run.outputs.out)).toEqual([7, 8, 9]);
  });

  it("should send exactly one cancelBulk on unsubscribe before done, and no request after", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const getBulkRuns = cold("-r|", { r: runs(3, "inProgress") });
      const cancelBulk = cold<void>("-c|", { c: undefined });
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => getBulkRuns,
        cancelBulk: () => cancelBulk,
      });
      // start answers at 1; poll at 3 answers at 4; unsubscribe at 6, before the poll due at 7
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(3, 10));
      expectObservable(summaries(snapshots), "^ 5ms !").toBe("ab--c-", {
        a: "0:3/0/0",
        b: "1:3/0/0",
        c: "1:0/3/0",
      });
      expectSubscriptions(getBulkRuns.subscriptions).toBe("3ms ^!");
      expectSubscriptions(cancelBulk.subscriptions).toBe("6ms ^-!");
    });
    expect(api.calls.cancelBulk).toEqual(["G1"]);
    expect(api.calls.getBulkRuns.length).toBe(1);
  });

  it("should abort the poll in flight on unsubscribe", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const getBulkRuns = cold("----r|", { r: runs(1, "inProgress") });
      const cancelBulk = cold<void>("-c|", { c: undefined });
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => getBulkRuns,
        cancelBulk: () => cancelBulk,
      });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(1, 10));
      expectObservable(summaries(snapshots), "^ 4ms !").toBe("ab", { a: "0:1/0/0", b: "1:1/0/0" });
      expectSubscriptions(getBulkRuns.subscriptions).toBe("3ms ^ 1ms !");
      expectSubscriptions(cancelBulk.subscriptions).toBe("5ms ^-!");
    });
  });

  it("should cancel only the groups that are not done", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      let started = 0;
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: `G${++started}` }),
        getBulkRuns: (groupId) =>
          cold("-r|", { r: runs(2, groupId === "G1" ? "success" : "inProgress") }),
        cancelBulk: () => cold<void>("-c|", { c: undefined }),
      });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(4, 2));
      // G1 is done at 4; G2 answers inProgress at 5; unsubscribe at 8
      expectObservable(summaries(snapshots), "^ 7ms !").toBe("abc-de", {
        a: "0:4/0/0",
        b: "1:4/0/0",
        c: "2:4/0/0",
        d: "2:2/0/2",
        e: "2:0/2/2",
      });
    });
    expect(api.calls.cancelBulk).toEqual(["G2"]);
  });

  it("should cancel a group whose bulkStart was in flight at unsubscribe, once it answers", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const bulkStart = cold("---g|", { g: "G1" });
      const cancelBulk = cold<void>("-c|", { c: undefined });
      api = fakeEndpoints({ bulkStartOnce: () => bulkStart, cancelBulk: () => cancelBulk });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10));
      expectObservable(summaries(snapshots), "^!").toBe("a", { a: "0:2/0/0" });
      // the start is not aborted (the service may have begun the group): it is cancelled instead
      expectSubscriptions(bulkStart.subscriptions).toBe("^---!");
      expectSubscriptions(cancelBulk.subscriptions).toBe("3ms ^-!");
    });
    expect(api.calls.getBulkRuns).toEqual([]);
  });

  it("should end the wait for a late bulkStart answer and its cancel within afterUnsubscribeMs of the unsubscribe", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const bulkStart = cold("--------g|", { g: "G1" });
      const hungCancel = cold<void>("-");
      api = fakeEndpoints({ bulkStartOnce: () => bulkStart, cancelBulk: () => hungCancel });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10));
      // unsubscribed at 1: the start answers at 8, its cancel hangs and is given up at 1 + 20
      expectObservable(summaries(snapshots), "-!").toBe("a", { a: "0:2/0/0" });
      expectSubscriptions(bulkStart.subscriptions).toBe("^--------!");
      expectSubscriptions(hungCancel.subscriptions).toBe("8ms ^ 12ms !");
    });
    expect(api.calls.cancelBulk).toEqual(["G1"]);
  });

  it("should drop a bulkStart still waiting to be sent at unsubscribe: nothing sent, nothing to cancel", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const queued = cold("---g|", { g: "G1" });
      api = fakeEndpoints({ cancelBulk: () => cold<void>("-c|", { c: undefined }) });
      // A transport that has not called onSent yet: the request still waits for a slot.
      api.bulkStartOnce = () => queued;
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10));
      expectObservable(summaries(snapshots), "-!").toBe("a", { a: "0:2/0/0" });
      expectSubscriptions(queued.subscriptions).toBe("^!");
    });
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should never send a bulkStart again for the cancel when unsubscribed after an attempt failed", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      const tooMany = new SpellHttpError(429, {}, "POST", "bulkStart", 4);
      api = fakeEndpoints({ bulkStartOnce: () => cold("-#", undefined, tooMany) });
      // the attempt fails at 1; unsubscribed at 3, while waiting to retry at 5
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(1, 10));
      expectObservable(summaries(snapshots), "---!").toBe("a", { a: "0:1/0/0" });
    });
    expect(api.calls.bulkStartOnce.length).toBe(1);
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should not cancel after done, nor after an error (the runs stay resumable)", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    const unauthorized = new SpellHttpError(401, {}, "POST", "getBulkRuns");
    marbles(({ cold, expectObservable }, scheduler) => {
      let started = 0;
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: `G${++started}` }),
        getBulkRuns: (groupId) =>
          groupId === "G1"
            ? cold("-r|", { r: runs(1, "inProgress") })
            : cold("-#", undefined, unauthorized),
      });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(2, 1));
      expectObservable(summaries(snapshots)).toBe(
        "abc-d#",
        { a: "0:2/0/0", b: "1:2/0/0", c: "2:2/0/0", d: "2:1/1/0" },
        unauthorized
      );
    });
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should treat a 404 shortly after bulkStart as not visible yet, and poll on", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      let polls = 0;
      const notFound = new SpellHttpError(404, {}, "POST", "getBulkRuns");
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () =>
          ++polls <= 2 ? cold("-#", undefined, notFound) : cold("-r|", { r: runs(2, "success") }),
      });
      // polls answer at 4 (404), 8 (404), 12 (done)
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10)))
      ).toBe("ab----------(c|)", { a: "0:2/0/0", b: "1:2/0/0", c: "1:0/0/2D" });
    });
  });

  it("should fail with the 404 once the visibility grace period is over", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const notFound = new SpellHttpError(404, {}, "POST", "getBulkRuns");
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => cold("-#", undefined, notFound),
      });
      // grace ends at 1 + 10 = 11: the 404 answered at 12 is an error
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10)))
      ).toBe("ab----------#", { a: "0:2/0/0", b: "1:2/0/0" }, notFound);
    });
  });

  it("should not be done while runs are missing (lazy groups), missing rows being pending", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      let polls = 0;
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => cold("-r|", { r: runs(++polls, "success") }),
      });
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(3, 10)))
      ).toBe("ab--c---d---(e|)", {
        a: "0:3/0/0",
        b: "1:3/0/0",
        c: "1:2/0/1",
        d: "1:1/0/2",
        e: "1:0/0/3D",
      });
    });
  });

  it("should give up after maxPollMs on a group that never shows all its runs, saying how many it showed, without cancelling", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    let error: unknown;
    marbles(({ cold, expectObservable }, scheduler) => {
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => cold("-r|", { r: runs(2, "success") }),
        cancelBulk: () => cold("-c|", { c: undefined }),
      });
      const limited = {
        ...context(api, scheduler),
        poll: { ...context(api, scheduler).poll, maxPollMs: 8 },
      };
      // polling starts at 1: polls at 3, 6, 9 (the limit), answers at 4, 7, 10
      const snapshots = bulkSnapshots(limited, "echo", chunked(3, 10)).pipe(
        tap({ error: (caught: unknown) => (error = caught) }),
        map(summary)
      );
      expectObservable(snapshots).toBe(
        "ab--c-----#",
        { a: "0:3/0/0", b: "1:3/0/0", c: "1:1/0/2" },
        jasmine.any(SpellPollLimitError)
      );
    });
    const limit = error as SpellPollLimitError;
    expect([limit.groupId, limit.visibleRuns, limit.expectedRuns, limit.limitMs]).toEqual([
      "G1",
      2,
      3,
      8,
    ]);
    expect(limit.message).toContain("getBulkRuns showed 2 of 3 runs");
    expect(api.calls.getBulkRuns.length).toBe(3);
    expect(api.calls.cancelBulk).toEqual([]);
  });

  it("should show a run's own state text, and emit when only that text changes", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const answers = [
        [{ state: "queued", outputs: {} }],
        [{ state: "Running", outputs: {} }],
        [{ state: "SUCCESS", outputs: { i: 0 } }],
      ];
      let polls = 0;
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => cold("-r|", { r: answers[polls++] }),
      });
      const rows = bulkSnapshots(context(api, scheduler), "echo", chunked(1, 10)).pipe(
        map((snapshot) => `${snapshot.runs[0].state}/${snapshot.runs[0].serviceState ?? ""}`)
      );
      expectObservable(rows).toBe("ab--c---d---(e|)", {
        a: "pending/",
        b: "pending/",
        c: "inProgress/queued",
        d: "inProgress/Running",
        e: "success/SUCCESS",
      });
    });
  });

  it("should fail with SpellProtocolError when a group has more runs than inputs", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: "G1" }),
        getBulkRuns: () => cold("-r|", { r: runs(3, "success") }),
      });
      const snapshots = bulkSnapshots(context(api, scheduler), "echo", chunked(2, 10)).pipe(
        map(summary)
      );
      expectObservable(snapshots).toBe(
        "ab--#",
        { a: "0:2/0/0", b: "1:2/0/0" },
        new SpellProtocolError("POST", "getBulkRuns", "3 runs for a group of 2 inputs", undefined)
      );
    });
  });

  it("should retry a bulkStart answered 429 after Retry-After, never one answered 500", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const tooMany = cold("-#", undefined, new SpellHttpError(429, {}, "POST", "bulkStart", 4));
      const api = fakeEndpoints({ bulkStartOnce: () => tooMany });
      // fails at 1, 6 and 11; waits Retry-After (4) twice; the limit (2) is reached at 11
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(1, 10)))
      ).toBe("a 10ms #", { a: "0:1/0/0" }, new SpellHttpError(429, {}, "POST", "bulkStart", 4));
      expectSubscriptions(tooMany.subscriptions).toBe(["^!", "5ms ^!", "10ms ^!"]);
    });
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const serverError = new SpellHttpError(500, {}, "POST", "bulkStart");
      const failing = cold("-#", undefined, serverError);
      const api = fakeEndpoints({ bulkStartOnce: () => failing });
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler), "echo", chunked(1, 10)))
      ).toBe("a#", { a: "0:1/0/0" }, serverError);
      expectSubscriptions(failing.subscriptions).toBe("^!");
    });
  });

  it("should hold one limiter slot per chunk until that chunk is done", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ cold, expectObservable }, scheduler) => {
      let started = 0;
      api = fakeEndpoints({
        bulkStartOnce: () => cold("-g|", { g: `G${++started}` }),
        getBulkRuns: () => cold("-r|", { r: runs(1, "success") }),
      });
      // limit 1: chunk 2 starts only when chunk 1 is done at 4
      expectObservable(
        summaries(bulkSnapshots(context(api, scheduler, 1), "echo", chunked(2, 1)))
      ).toBe("ab--cd--(e|)", {
        a: "0:2/0/0",
        b: "1:2/0/0",
        c: "1:1/0/1",
        d: "2:1/0/1",
        e: "2:0/0/2D",
      });
    });
    expect(api.calls.bulkStartOnce.length).toBe(2);
  });

  it("should emit one done snapshot for an empty list, without any request", () => {
    let api!: ReturnType<typeof fakeEndpoints>;
    marbles(({ expectObservable }, scheduler) => {
      api = fakeEndpoints({});
      expectObservable(summaries(bulkSnapshots(context(api, scheduler), "echo", []))).toBe("(a|)", {
        a: "0:0/0/0D",
      });
    });
    expect(api.calls.bulkStartOnce).toEqual([]);
  });

  it("should report never-submitted chunks of a resumed bulk as errors", () => {
    let last!: BulkSnapshot;
    marbles(({ cold }, scheduler) => {
      const api = fakeEndpoints({ getBulkRuns: () => cold("-r|", { r: runs(2, "success") }) });
      const chunks: BulkChunk[] = [{ size: 2, groupId: "G1" }, { size: 1 }];
      bulkSnapshots(context(api, scheduler), "echo", chunks).subscribe((s) => (last = s));
    });
    expect(last.done).toBeTrue();
    expect(last.runs.map((run) => run.state)).toEqual(["success", "success", "error"]);
    expect(last.counts.error).toBe(1);
  });
});
