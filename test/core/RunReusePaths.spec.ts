import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { Observable, Subscription, type Subscriber } from "rxjs";
import { RunReuse } from "../../src/runs/RunReuse.js";
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
