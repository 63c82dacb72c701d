import fc from "fast-check";
import { throwError, type Observable, type Subscription } from "rxjs";
import type { ClientParts } from "../../src/runs/ClientParts.js";
import { clientSettings } from "../../src/runs/ClientSettings.js";
import { clientCoreAccess, type ClientCore } from "../../src/runs/clientCoreAccess.js";
import { withModule } from "../../src/runs/inLoadOrder.js";
import { lazyModule, type LazyModule } from "../../src/util/lazyModule.js";
import type { RunSnapshot } from "../../src/types.js";
import { answeringService } from "./support/answeringService.js";

/**
 * A module whose load a path finishes by hand (none of these fails); finished before its load
 * began, it loads at once when asked.
 */
function heldModule<M>(name: string, loaded: () => Promise<M>) {
  let finished = false;
  let finish: (() => void) | undefined;
  const lazy: LazyModule<M> = lazyModule<M>(
    name,
    () =>
      new Promise<M>((resolve) => {
        finish = () => resolve(loaded());
        // Finished before anything asked for it: the load ends at once.
        if (finished) finish();
      })
  );
  return {
    lazy,
    finish: () => {
      finished = true;
      finish?.();
    },
  };
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A step of a path: a call (a plain run, or one needing module P or Q first), a call let go (its
 * caller unsubscribes, maybe before it started), a load finished, time.
 */
type Step =
  | { kind: "call"; needs: "core" | "P" | "Q"; refused: boolean }
  | { kind: "drop"; which: number }
  | { kind: "finish"; module: "core" | "P" | "Q" }
  | { kind: "turns"; count: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("call" as const),
      needs: fc.constantFrom("core" as const, "P" as const, "Q" as const),
      // Refused as it starts (a row too large): its caller falls back to a new call.
      refused: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("finish" as const),
      module: fc.constantFrom("core" as const, "P" as const, "Q" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("drop" as const), which: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("turns" as const),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  }
);

describe("A client's calls over generated paths of module loads", () => {
  // Node reads the core's files once; the paths hold and finish its load by hand.
  beforeAll(async () => {
    await import("../../src/runs/clientCore.js");
  });

  it("should start every call in the order it was made, whatever loads its calls wait for, whenever they finish and whichever calls are let go", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 30 }), async (steps) => {
        const { started, options } = answeringService();
        const core = heldModule<ClientCore>(
          "./runs/clientCore.js",
          () => import("../../src/runs/clientCore.js")
        );
        const modules = {
          core,
          P: heldModule("./runs/p.js", () => Promise.resolve({ name: "P" })),
          Q: heldModule("./runs/q.js", () => Promise.resolve({ name: "Q" })),
        };
        const access = clientCoreAccess(clientSettings(options), options, core.lazy);
        const made: string[] = [];
        const subscriptions: Subscription[] = [];
        // Calls let go before they started: they never start, and the calls after them go on.
        const droppedWaiting = new Set<string>();
        const call = (needs: "core" | "P" | "Q", refused = false): void => {
          const name = `${made.length}:${needs}${refused ? ":refused" : ""}`;
          made.push(name);
          // A refused call never reaches the service; the call its caller makes then is new.
          if (refused) droppedWaiting.add(name);
          const run = (parts: ClientParts, { clientRun }: ClientCore): Observable<RunSnapshot> =>
            refused ? throwError(() => new Error("refused")) : clientRun(parts, name, {}, {});
          subscriptions.push(
            access
              .call((parts, module) =>
                needs === "core"
                  ? run(parts, module)
                  : withModule(parts, modules[needs].lazy, () => run(parts, module))
              )
              .subscribe({ error: () => call("core") })
          );
        };
        /** Started calls are the calls made, in order, less those let go before they started. */
        const check = (atEnd: boolean): void => {
          const expected = made.filter((name) => !droppedWaiting.has(name));
          const ok = atEnd
            ? started.join() === expected.join()
            : started.join() === expected.slice(0, started.length).join();
          if (!ok) {
            throw new Error(
              `broken: started ${started.join(" ")} of made ${made.join(" ")}, ` +
                `let go before starting: ${[...droppedWaiting].join(" ")}`
            );
          }
        };
        for (const step of steps) {
          if (step.kind === "call") call(step.needs, step.refused);
          else if (step.kind === "drop" && made.length > 0) {
            const index = step.which % made.length;
            const subscription = subscriptions[index];
            if (!subscription.closed && !started.includes(made[index])) {
              droppedWaiting.add(made[index]);
            }
            subscription.unsubscribe();
          } else if (step.kind === "finish") modules[step.module].finish();
          else if (step.kind === "turns") await turns(step.count);
          // Invariant after every step: what has started is the calls' first ones, in order.
          check(false);
        }
        for (const module of Object.values(modules)) module.finish();
        const expected = made.length - droppedWaiting.size;
        for (let i = 0; i < 200 && started.length < expected; i++) await turns(1);
        check(true);
      }),
      { numRuns: 200 }
    );
  });
});
