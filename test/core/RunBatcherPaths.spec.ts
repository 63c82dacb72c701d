import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { TestScheduler } from "rxjs/testing";
import { map, NEVER, timer, VirtualTimeScheduler, type Observable } from "rxjs";
import { MemoryResultStore } from "../../src/MemoryResultStore.js";
import { RunReuse } from "../../src/runs/RunReuse.js";
import { startedRunKey, type StartedRun } from "../../src/runs/StartedRun.js";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import type { RunAnswer } from "../../src/http/parseResponses.js";
import type { BulkContext } from "../../src/runs/bulkSnapshots.js";
import { RunBatcher } from "../../src/runs/RunBatcher.js";
import type { ResultStore, RunSnapshot } from "../../src/types.js";
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

/**
 * Generated paths through reuse over the batcher, as the add-in's cells use them: callers of a
 * few inputs join, leave, come back within the grace or after it, and the page reloads (a new
 * reuse and batcher over the same store and service; the old page's requests go nowhere).
 */
const GRACE = 10;
const RUN_FRAMES = 14;
const INPUT_KEYS = 3;

interface PageCall {
  key: number;
  at: number;
  leaveAfter?: number;
}

const pageCallArbitrary: fc.Arbitrary<PageCall> = fc.record({
  key: fc.nat(INPUT_KEYS - 1),
  at: fc.nat(40),
  leaveAfter: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
});

/** Lets pending microtasks and promise callbacks run. */
async function settleTurns(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

describe("RunBatcher under reuse over generated paths with a grace and reloads", () => {
  it("should never send an input whose row is in flight or known, and cancel a group only when none of its rows had a caller back within the grace", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pageCallArbitrary, { minLength: 1, maxLength: 12 }),
        fc.option(fc.nat(40), { nil: undefined }),
        async (calls, reloadAt) => {
          const scheduler = new VirtualTimeScheduler();
          const store = new MemoryResultStore(1000, () => scheduler.now());
          const broken: string[] = [];
          /** The service's groups: rows (input keys), start frame, cancel frame. */
          const groups: Array<{ keys: number[]; at: number; cancelledAt?: number }> = [];
          const rowEnded = (group: (typeof groups)[number]) =>
            group.cancelledAt !== undefined || scheduler.now() >= group.at + RUN_FRAMES;
          const inFlight = (key: number) =>
            groups.some((group) => group.keys.includes(key) && !rowEnded(group));
          const succeeded = (key: number) =>
            groups.some(
              (group) =>
                group.keys.includes(key) &&
                group.cancelledAt === undefined &&
                scheduler.now() >= group.at + RUN_FRAMES
            );
          type Page = {
            gone: boolean;
            reuse: RunReuse;
            batcher: RunBatcher;
            sent: Set<number>;
            leftAt: Map<number, number>;
            listening: Map<number, number>;
          };
          const newPage = (): Page => {
            const page = {
              gone: false,
              sent: new Set<number>(),
              leftAt: new Map<number, number>(),
              listening: new Map<number, number>(),
            } as Page;
            // The old page's requests go nowhere after the reload (its runtime is gone).
            const api = fakeEndpoints({
              bulkStartOnce: (_spell, inputs) => {
                if (page.gone) return NEVER;
                const keys = inputs.map((row) => row.key as number);
                for (const key of keys) {
                  const known = store.get(`k${key}`) ?? store.get(startedRunKey(`k${key}`));
                  if (inFlight(key) && (page.sent.has(key) || known)) {
                    broken.push(`input ${key} sent while its row is in flight`);
                  }
                  // Known as a result, or as a started run whose group was not cancelled (a
                  // group this page cancelled is sent anew, as documented).
                  const started = store.get(startedRunKey(`k${key}`));
                  const startedGroup =
                    typeof started?.groupId === "string"
                      ? groups[Number(started.groupId.slice(1))]
                      : undefined;
                  const stillKnown =
                    store.get(`k${key}`) !== undefined ||
                    (startedGroup !== undefined && startedGroup.cancelledAt === undefined);
                  if (succeeded(key) && stillKnown) {
                    broken.push(`input ${key} sent though known`);
                  }
                  page.sent.add(key);
                }
                groups.push({ keys, at: scheduler.now() });
                return timer(1, scheduler).pipe(map(() => `G${groups.length - 1}`));
              },
              getBulkRuns: (id) => {
                if (page.gone) return NEVER;
                const group = groups[Number(id.slice(1))];
                return timer(1, scheduler).pipe(
                  map(() =>
                    group.keys.map((key): RunAnswer => {
                      if (group.cancelledAt !== undefined) return { state: "failure", outputs: {} };
                      return scheduler.now() >= group.at + RUN_FRAMES
                        ? { state: "success", outputs: { key } }
                        : { state: "inProgress", outputs: {} };
                    })
                  )
                );
              },
              cancelBulk: (id) => {
                if (page.gone) return NEVER;
                const group = groups[Number(id.slice(1))];
                for (const key of group.keys) {
                  if ((page.listening.get(key) ?? 0) > 0) {
                    broken.push(`G${id} cancelled while input ${key} has a caller`);
                  }
                  const left = page.leftAt.get(key);
                  if (left !== undefined && scheduler.now() - left < GRACE) {
                    broken.push(`${id} cancelled within the grace of input ${key}`);
                  }
                }
                group.cancelledAt ??= scheduler.now();
                return timer(1, scheduler).pipe(map(() => undefined));
              },
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
            page.batcher = new RunBatcher(() => context, { windowMs: 2, maxSize: 10 });
            // Nor do its writes: what it learns after the reload is lost with it.
            const pageStore: ResultStore = {
              get: (key) => store.get(key),
              set: (key, outputs, ttlMs) =>
                page.gone ? undefined : store.set(key, outputs, ttlMs),
              delete: (key) => (page.gone ? undefined : store.delete(key)),
            };
            page.reuse = new RunReuse(
              { ttlMs: 60_000, store: pageStore, cancelGraceMs: GRACE },
              scheduler
            );
            return page;
          };
          let page = newPage();
          const outcomes: Array<{ page: Page; key: number; outputs?: unknown; left: boolean }> = [];
          const lastFrame = 80;
          for (let frame = 0; frame <= lastFrame; frame++) {
            if (frame === reloadAt) {
              page.gone = true;
              page = newPage();
            }
            calls.forEach((call, index) => {
              if (call.at === frame) {
                const on = page;
                const key = call.key;
                const outcome = { page: on, key, left: false } as (typeof outcomes)[number];
                outcomes[index] = outcome;
                on.listening.set(key, (on.listening.get(key) ?? 0) + 1);
                const stop = () => {
                  if (outcome.left || outcome.outputs !== undefined) return;
                  on.listening.set(key, (on.listening.get(key) ?? 0) - 1);
                };
                const subscription = on.reuse
                  .run(
                    `k${key}`,
                    (started) => on.batcher.run("echo", { key }, started),
                    // As the client does: a group this page cancelled is sent anew.
                    (started: StartedRun) =>
                      !("groupId" in started)
                        ? NEVER
                        : on.batcher.hasCancelled(started.groupId)
                          ? undefined
                          : on.batcher.rejoin(started)
                  )
                  .subscribe({
                    next: (snapshot) => {
                      if (snapshot.state !== "success") return;
                      stop();
                      outcome.outputs = snapshot.outputs;
                    },
                    error: () => {
                      stop();
                      outcome.left = true;
                    },
                  });
                if (call.leaveAfter !== undefined) {
                  scheduler.schedule(() => {
                    if (on.gone || outcome.outputs !== undefined || outcome.left) return;
                    stop();
                    outcome.left = true;
                    on.leftAt.set(key, scheduler.now());
                    subscription.unsubscribe();
                  }, call.leaveAfter);
                }
              }
            });
            await settleTurns();
            scheduler.schedule(() => undefined, 1);
            scheduler.maxFrames = scheduler.now() + 1;
            scheduler.flush();
            await settleTurns();
            must(broken.length === 0, broken.join("; "));
          }
          // Each caller of the last page that stayed has its own input's result.
          for (const outcome of outcomes) {
            if (!outcome || outcome.page.gone || outcome.left) continue;
            must(
              isDeepStrictEqual(outcome.outputs, { key: outcome.key }),
              `a caller of input ${outcome.key} that stayed has its own result`
            );
          }
        }
      ),
      { numRuns: 150 }
    );
  });
});
