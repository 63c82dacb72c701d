import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { Observable, Subscription, VirtualTimeScheduler, type Subscriber } from "rxjs";
import { SpellRunError } from "../../src/errors/SpellRunError.js";
import { RunReuse } from "../../src/runs/RunReuse.js";
import { startedRunKey, type StartedRun } from "../../src/runs/StartedRun.js";
import type { ResultStore, RunSnapshot } from "../../src/types.js";

/** One step of a generated path: a call of key `key`, a caller leaving, or a run's news. */
type Step =
  | { kind: "call"; key: number }
  | { kind: "leave"; caller: number }
  | { kind: "progress" | "succeed" | "fail"; key: number }
  | { kind: "settle" };

const KEYS = 4;
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("call" as const), key: fc.nat(KEYS - 1) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("leave" as const), caller: fc.nat(20) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("progress" as const, "succeed" as const, "fail" as const),
      key: fc.nat(KEYS - 1),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "settle" as const }) }
);

/** How the generated store answers: at once or later, and how many turns a write takes. */
interface StoreShape {
  asyncGet: boolean;
  setTurns: number;
  remembered: number[];
}

/** Lets every pending promise and microtask run (a store's write may take a few turns). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

interface Caller {
  key: number;
  subscription: Subscription;
  values: RunSnapshot[];
  error?: unknown;
  completed: boolean;
  left: boolean;
}

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

describe("RunReuse over generated paths of calls, leaves and run news", () => {
  it("should never send a known key, never send a key twice at once, give each caller its own key's result, and cancel a run only when no caller is left", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          asyncGet: fc.boolean(),
          setTurns: fc.nat(3),
          remembered: fc.uniqueArray(fc.nat(KEYS - 1), { maxLength: 2 }),
        }),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 40 }),
        async (shape: StoreShape, steps: Step[]) => {
          const stored = new Map<string, Record<string, unknown>>(
            shape.remembered.map((key) => [`k${key}`, { key }])
          );
          const store: ResultStore = {
            get: (key) => (shape.asyncGet ? Promise.resolve(stored.get(key)) : stored.get(key)),
            set: async (key, outputs) => {
              for (let turn = 0; turn < shape.setTurns; turn++) await Promise.resolve();
              stored.set(key, outputs);
            },
          };
          const reuse = new RunReuse({ ttlMs: 60_000, store });
          /** The run sent per key, while it is going. */
          const live = new Map<number, { subscriber: Subscriber<RunSnapshot> }>();
          const succeeded = new Set<number>();
          const callers: Caller[] = [];
          /** Rules broken inside the fake run (where a throw would only reach its subscriber). */
          const broken: string[] = [];
          const fresh = (key: number) => () =>
            new Observable<RunSnapshot>((subscriber) => {
              // Never sent while known (remembered, or succeeded before), never twice at once.
              if (stored.has(`k${key}`)) broken.push(`key ${key} sent though remembered`);
              if (succeeded.has(key)) broken.push(`key ${key} sent again after its success`);
              if (live.has(key)) broken.push(`key ${key} sent twice at once`);
              const run = { subscriber };
              live.set(key, run);
              return () => {
                if (live.get(key) === run) {
                  // Unsubscribed before its end: a cancel, only when no caller of the key listens.
                  const listening = callers.filter(
                    (c) => c.key === key && !c.left && !c.completed && c.error === undefined
                  );
                  if (listening.length > 0) broken.push(`key ${key} cancelled with callers left`);
                }
                if (live.get(key) === run) live.delete(key);
              };
            });
          for (const step of steps) {
            switch (step.kind) {
              case "call": {
                const caller: Caller = {
                  key: step.key,
                  subscription: Subscription.EMPTY,
                  values: [],
                  completed: false,
                  left: false,
                };
                caller.subscription = reuse.run(`k${step.key}`, fresh(step.key)).subscribe({
                  next: (snapshot) => caller.values.push(snapshot),
                  error: (error: unknown) => (caller.error = error),
                  complete: () => (caller.completed = true),
                });
                callers.push(caller);
                break;
              }
              case "leave": {
                const caller = callers[step.caller];
                if (!caller || caller.left) break;
                caller.left = true;
                caller.subscription.unsubscribe();
                break;
              }
              case "progress":
                live.get(step.key)?.subscriber.next({ state: "inProgress", outputs: {} });
                break;
              case "succeed": {
                const run = live.get(step.key);
                if (!run) break;
                live.delete(step.key);
                succeeded.add(step.key);
                run.subscriber.next({ state: "success", outputs: { key: step.key } });
                run.subscriber.complete();
                break;
              }
              case "fail": {
                const run = live.get(step.key);
                if (!run) break;
                live.delete(step.key);
                run.subscriber.error(new Error(`run of key ${step.key} failed`));
                break;
              }
              case "settle":
                await settle();
                break;
            }
            must(broken.length === 0, broken.join("; "));
            // After every step: each caller has only its own key's news, a success ends it.
            for (const caller of callers) {
              for (const value of caller.values) {
                if (value.state === "success") {
                  must(isDeepStrictEqual(value.outputs, { key: caller.key }), "own key's outputs");
                }
              }
              const last = caller.values[caller.values.length - 1];
              if (caller.completed) must(last?.state === "success", "completes after success");
            }
          }
          await settle();
          // A caller that stayed and whose key succeeded or was remembered has the result.
          for (const caller of callers) {
            if (caller.left || caller.error !== undefined) continue;
            if (succeeded.has(caller.key) || shape.remembered.includes(caller.key)) {
              must(caller.completed, `a caller of key ${caller.key} that stayed has its result`);
            }
          }
          for (const caller of callers) {
            caller.left = true;
            caller.subscription.unsubscribe();
          }
        }
      ),
      { numRuns: 300 }
    );
  });
});

/** One step of a path with a grace and reloads: the steps above, time passing, a reload. */
type GraceStep = Step | { kind: "wait"; ms: number } | { kind: "reload" } | { kind: "turn" };

const GRACE = 10;
const graceStepArbitrary: fc.Arbitrary<GraceStep> = fc.oneof(
  { weight: 8, arbitrary: stepArbitrary },
  {
    weight: 2,
    // Within the grace, or past it.
    arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.constantFrom(3, 12) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) },
  // One microtask: a store's write may be half way.
  { weight: 2, arbitrary: fc.constant({ kind: "turn" as const }) }
);

/** A run at the service: it goes on whoever watches it, until it succeeds or fails. */
interface ServiceRun {
  id: string;
  key: number;
  /** The page that sent it. */
  page: Page;
  ended?: "success" | "failure";
  watchers: Set<Subscriber<RunSnapshot>>;
}

/** A page of the add-in: its own reuse over the one store, gone after a reload. */
interface Page {
  reuse: RunReuse;
  gone: boolean;
  /** When its last caller of a key left (the grace runs from there). */
  leftAt: Map<number, number>;
}

interface PageCaller extends Caller {
  page: Page;
}

describe("RunReuse over generated paths with a grace and reloads", () => {
  it("should never send a key whose run is in flight or known, and cancel a run only when no caller came back within the grace", async () => {
    await fc.assert(
      fc.asyncProperty(
        // A grace of 0 too: the library's default, a run let go at once.
        fc.record({
          asyncGet: fc.boolean(),
          setTurns: fc.nat(3),
          grace: fc.constantFrom(0, GRACE),
        }),
        fc.array(graceStepArbitrary, { minLength: 1, maxLength: 50 }),
        async (shape: Omit<StoreShape, "remembered"> & { grace: number }, steps: GraceStep[]) => {
          const scheduler = new VirtualTimeScheduler();
          const stored = new Map<string, Record<string, unknown>>();
          const later = async () => {
            for (let turn = 0; turn < shape.setTurns; turn++) await Promise.resolve();
          };
          /** The store as a page sees it: once the page is gone, its writes go nowhere. */
          const storeOf = (page: { gone: boolean }): ResultStore => ({
            get: (key) => (shape.asyncGet ? Promise.resolve(stored.get(key)) : stored.get(key)),
            set: async (key, outputs) => {
              await later();
              if (!page.gone) stored.set(key, outputs);
            },
            delete: async (key) => {
              await later();
              if (!page.gone) stored.delete(key);
            },
          });
          const newPage = (): Page => {
            const page: Page = { gone: false, leftAt: new Map(), reuse: undefined as never };
            page.reuse = new RunReuse(
              { ttlMs: 60_000, store: storeOf(page), cancelGraceMs: shape.grace },
              scheduler
            );
            return page;
          };
          let page = newPage();
          const runs: ServiceRun[] = [];
          const callers: PageCaller[] = [];
          const broken: string[] = [];
          const inFlight = (key: number) => runs.find((run) => run.key === key && !run.ended);
          const listening = (on: Page, key: number) =>
            callers.filter(
              (c) =>
                c.page === on && c.key === key && !c.left && !c.completed && c.error === undefined
            );
          /** A watcher of a run: told its news; its unsubscribe before the end is a cancel. */
          const watch = (run: ServiceRun, on: Page) =>
            new Observable<RunSnapshot>((subscriber) => {
              if (run.ended === "success") {
                subscriber.next({ runId: run.id, state: "success", outputs: { key: run.key } });
                subscriber.complete();
                return;
              }
              if (run.ended === "failure") {
                subscriber.error(new SpellRunError("failure", {}, run.id));
                return;
              }
              run.watchers.add(subscriber);
              subscriber.next({ runId: run.id, state: "inProgress", outputs: {} });
              return () => {
                if (!run.watchers.delete(subscriber) || run.ended || on.gone) return;
                if (listening(on, run.key).length > 0) {
                  broken.push(`key ${run.key} cancelled with callers left`);
                }
                const left = on.leftAt.get(run.key) ?? -Infinity;
                if (scheduler.now() - left < shape.grace) {
                  broken.push(`key ${run.key} cancelled within the grace`);
                }
              };
            });
          const fresh = (key: number, on: Page) => () => {
            if (stored.has(`k${key}`)) broken.push(`key ${key} sent though remembered`);
            // Known to this page, or to the store: a page reloaded before its record landed
            // cannot tell the next one (as a start whose answer it never saw).
            const known = (run: ServiceRun) =>
              run.page === on || stored.has(startedRunKey(`k${key}`));
            if (runs.some((run) => run.key === key && run.ended === "success" && known(run))) {
              broken.push(`key ${key} sent again after its success`);
            }
            const live = inFlight(key);
            if (live && known(live)) broken.push(`key ${key} sent while its run is in flight`);
            const run: ServiceRun = { id: `r${runs.length}`, key, page: on, watchers: new Set() };
            runs.push(run);
            return watch(run, on);
          };
          const resume = (on: Page) => (started: StartedRun) => {
            const run = "runId" in started ? runs.find((r) => r.id === started.runId) : undefined;
            if (!run) throw new Error(`resumed a run never started: ${JSON.stringify(started)}`);
            return watch(run, on);
          };
          const end = (key: number, how: "success" | "failure") => {
            const run = inFlight(key);
            if (!run) return;
            run.ended = how;
            for (const watcher of [...run.watchers]) {
              run.watchers.delete(watcher);
              if (how === "failure") watcher.error(new SpellRunError("failure", {}, run.id));
              else {
                watcher.next({ runId: run.id, state: "success", outputs: { key } });
                watcher.complete();
              }
            }
          };
          for (const step of steps) {
            switch (step.kind) {
              case "call": {
                const on = page;
                const caller: PageCaller = {
                  key: step.key,
                  page: on,
                  subscription: Subscription.EMPTY,
                  values: [],
                  completed: false,
                  left: false,
                };
                callers.push(caller);
                caller.subscription = on.reuse
                  .run(`k${step.key}`, fresh(step.key, on), resume(on))
                  .subscribe({
                    next: (snapshot) => caller.values.push(snapshot),
                    error: (error: unknown) => (caller.error = error),
                    complete: () => (caller.completed = true),
                  });
                break;
              }
              case "leave": {
                // Most often one of the latest callers (a cell's input changed while it runs).
                const caller = callers[callers.length - 1 - (step.caller % 3)];
                if (!caller || caller.left || caller.page.gone) break;
                caller.left = true;
                caller.page.leftAt.set(caller.key, scheduler.now());
                caller.subscription.unsubscribe();
                break;
              }
              case "progress":
                for (const watcher of inFlight(step.key)?.watchers ?? []) {
                  watcher.next({ state: "inProgress", serviceState: "busy", outputs: {} });
                }
                break;
              case "succeed":
                end(step.key, "success");
                break;
              case "fail":
                end(step.key, "failure");
                break;
              case "settle":
                await settle();
                break;
              case "turn":
                await Promise.resolve();
                break;
              case "wait":
                // Time passes: what was written lands, then the clock moves on.
                await settle();
                scheduler.schedule(() => undefined, step.ms);
                scheduler.maxFrames = scheduler.now() + step.ms;
                scheduler.flush();
                break;
              case "reload":
                // The page dies with its runs watched (no unsubscribe); the service and the
                // store stay, and the cells are calculated again by a new page.
                await settle();
                page.gone = true;
                page = newPage();
                break;
            }
            must(broken.length === 0, broken.join("; "));
            for (const caller of callers) {
              for (const value of caller.values) {
                if (value.state === "success") {
                  must(isDeepStrictEqual(value.outputs, { key: caller.key }), "own key's outputs");
                }
              }
            }
          }
          await settle();
          // A caller of the last page that stayed, whose key's run succeeded, has the result.
          for (const caller of callers) {
            if (caller.page.gone || caller.left || caller.error !== undefined) continue;
            if (runs.some((run) => run.key === caller.key && run.ended === "success")) {
              must(caller.completed, `a caller of key ${caller.key} that stayed has its result`);
            }
          }
        }
      ),
      { numRuns: 300 }
    );
  });
});
