import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { TestScheduler } from "rxjs/testing";
import type { Observable } from "rxjs";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import type { RunAnswer } from "../../src/http/parseResponses.js";
import type { BulkContext } from "../../src/runs/bulkSnapshots.js";
import { RunBatcher } from "../../src/runs/RunBatcher.js";
import type { RunSnapshot } from "../../src/types.js";
import { ConcurrencyLimiter } from "../../src/util/ConcurrencyLimiter.js";
import { fakeEndpoints } from "./support/fakeEndpoints.js";

/**
 * Generated paths through the batcher: callers join at frames 0 mod 4, leave at frames 1 mod 4,
 * and a batch's window (6 frames) closes at frames 2 mod 4, so a model can tell exactly which
 * batch each caller is in and what each bulkStart must carry.
 */
const WINDOW = 6;
const MAX_SIZE = 3;

interface Call {
  /** Frame it subscribes at (a multiple of 4). */
  at: number;
  /** Its run ends in failure. */
  fails: boolean;
  /** Frame it unsubscribes at (1 mod 4), if it leaves. */
  leaveAt?: number;
}

const callArbitrary: fc.Arbitrary<Call> = fc
  .record({
    slot: fc.integer({ min: 0, max: 8 }),
    fails: fc.boolean(),
    leaveAfter: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  })
  .map(({ slot, fails, leaveAfter }) => ({
    at: slot * 4,
    fails,
    leaveAt: leaveAfter === undefined ? undefined : slot * 4 + 1 + leaveAfter * 4,
  }));

/** What the model expects of each bulkStart, in order: its rows (call numbers) and its frame. */
function expectedBulkStarts(calls: readonly Call[]): Array<{ rows: number[]; at: number }> {
  type Batch = { openedAt: number; members: number[]; present: Set<number> };
  const events: Array<{ at: number; kind: "join" | "leave"; call: number }> = [];
  calls.forEach((call, index) => {
    events.push({ at: call.at, kind: "join", call: index });
    if (call.leaveAt !== undefined) events.push({ at: call.leaveAt, kind: "leave", call: index });
  });
  // Joins in subscription order at the same frame (their order in the list).
  events.sort((a, b) => a.at - b.at || a.call - b.call);
  const starts: Array<{ rows: number[]; at: number }> = [];
  let open: Batch | undefined;
  const batchOf = new Map<number, Batch>();
  const close = (batch: Batch, at: number) => {
    starts.push({ rows: batch.members.filter((call) => batch.present.has(call)), at });
    open = undefined;
  };
  for (const event of events) {
    if (open && event.at >= open.openedAt + WINDOW) close(open, open.openedAt + WINDOW);
    if (event.kind === "join") {
      open ??= { openedAt: event.at, members: [], present: new Set() };
      open.members.push(event.call);
      open.present.add(event.call);
      batchOf.set(event.call, open);
      if (open.members.length >= MAX_SIZE) close(open, event.at);
    } else {
      const batch = batchOf.get(event.call) as Batch;
      if (batch !== open) continue;
      batch.present.delete(event.call);
      // Every caller gone before the window closed: nothing is sent.
      if (batch.present.size === 0) open = undefined;
    }
  }
  if (open) close(open, open.openedAt + WINDOW);
  return starts;
}

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

describe("RunBatcher over generated paths of calls and leaves", () => {
  it("should send each caller present at its batch's close exactly once, give it its own result, and cancel a group only when no caller listens", () => {
    fc.assert(
      fc.property(fc.array(callArbitrary, { minLength: 1, maxLength: 14 }), (calls) => {
        const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
        const outcomes: Array<{ values: RunSnapshot[]; error?: unknown; completed: boolean }> =
          calls.map(() => ({ values: [], completed: false }));
        let api!: ReturnType<typeof fakeEndpoints>;
        scheduler.run(({ cold }) => {
          const sent = new Map<string, readonly Record<string, unknown>[]>();
          const polls = new Map<string, number>();
          api = fakeEndpoints({
            bulkStartOnce: (_spell, inputs) => {
              const id = `G${sent.size + 1}`;
              sent.set(id, inputs);
              return cold("-g|", { g: id });
            },
            // The first poll sees every run in progress, the next its end.
            getBulkRuns: (id) => {
              const count = (polls.get(id) ?? 0) + 1;
              polls.set(id, count);
              const answer: RunAnswer[] = (sent.get(id) ?? []).map((row) =>
                count === 1
                  ? { state: "inProgress", outputs: {} }
                  : { state: calls[row.call as number].fails ? "failure" : "success", outputs: row }
              );
              return cold("-r|", { r: answer });
            },
            cancelBulk: () => cold<void>("-c|", { c: undefined }),
          });
          const context: BulkContext = {
            api,
            limiter: new ConcurrencyLimiter(100),
            poll: { initialDelayMs: 2, intervalMs: 3, growth: 1, maxIntervalMs: 3 },
            retry: { limit: 0, baseDelayMs: 5, jitter: 0 },
            scheduler,
            visibilityGraceMs: 10,
            afterUnsubscribeMs: 20,
          };
          const batcher = new RunBatcher(() => context, { windowMs: WINDOW, maxSize: MAX_SIZE });
          calls.forEach((call, index) => {
            const run$: Observable<RunSnapshot> = batcher.run("echo", { call: index });
            scheduler.schedule(() => {
              const subscription = run$.subscribe({
                next: (snapshot) => outcomes[index].values.push(snapshot),
                error: (error: unknown) => (outcomes[index].error = error),
                complete: () => (outcomes[index].completed = true),
              });
              if (call.leaveAt !== undefined) {
                scheduler.schedule(() => subscription.unsubscribe(), call.leaveAt - call.at);
              }
            }, call.at);
          });
        });

        const starts = api.calls.bulkStartOnce.map(([, inputs]) =>
          inputs.map((row) => row.call as number)
        );
        // The model's batches, each caller in at most one bulkStart (none started twice).
        const expected = expectedBulkStarts(calls);
        must(
          isDeepStrictEqual(
            starts,
            expected.map((start) => start.rows)
          ),
          `bulkStarts ${JSON.stringify(starts)} are the batches of the model`
        );
        const sentCalls = starts.flat();
        must(new Set(sentCalls).size === sentCalls.length, "no caller sent twice");
        calls.forEach((call, index) => {
          if (call.leaveAt !== undefined) return;
          // A caller that stays gets its own run's end: its outputs, or its own SpellRunError.
          const outcome = outcomes[index];
          if (call.fails) {
            must(
              outcome.error instanceof SpellRunError && outcome.error.state === "failure",
              `caller ${index} has its own SpellRunError`
            );
          } else {
            must(
              outcome.error === undefined &&
                outcome.completed &&
                isDeepStrictEqual(
                  outcome.values.map((value) => value.state),
                  ["inProgress", "success"]
                ) &&
                isDeepStrictEqual(outcome.values[1].outputs, { call: index }),
              `caller ${index} has its own result`
            );
          }
        });
        // A group is cancelled at most once, and never while one of its callers stayed.
        const cancels = api.calls.cancelBulk;
        must(new Set(cancels).size === cancels.length, "a group cancelled at most once");
        starts.forEach((rows, group) => {
          const stayed = rows.some((call) => calls[call].leaveAt === undefined);
          if (stayed) must(!cancels.includes(`G${group + 1}`), `G${group + 1} not cancelled`);
          // Every caller gone before its run ended (the second poll's answer, 8 frames after the
          // bulkStart): one cancelBulk.
          const endsAt = expected[group].at + 8;
          const allLeftEarly = rows.every((call) => (calls[call].leaveAt ?? Infinity) < endsAt);
          if (allLeftEarly) must(cancels.includes(`G${group + 1}`), `G${group + 1} cancelled`);
        });
      }),
      { numRuns: 300 }
    );
  });
});
