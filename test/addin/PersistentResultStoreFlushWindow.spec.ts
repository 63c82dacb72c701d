import fc from "fast-check";
import { PersistentResultStore } from "../../addin/PersistentResultStore.js";
import { memoryStorage, type KeyValueStorage } from "../../addin/keyValueStorage.js";

const FLUSH_DELAY_MS = 100;
const TTL_MS = 86_400_000;

type Step =
  | { kind: "set"; key: number; value: number }
  | { kind: "started"; key: number }
  | { kind: "delete"; key: number }
  | { kind: "wait"; ms: number }
  | { kind: "kill" };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      key: fc.nat(7),
      value: fc.nat(3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("started" as const), key: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), key: fc.nat(7) }) },
  {
    weight: 3,
    // Results streaming faster than the flush delay, at it, and slower.
    arbitrary: fc.record({
      kind: fc.constant("wait" as const),
      ms: fc.constantFrom(0, 10, 40, 60, 99, 100, 150, 400),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "kill" as const }) }
);

/** Lets storage calls answered in microtasks, and the flushes they end, settle. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Timers on a clock of the spec's own, handed to the store as its `schedule` option: the global
 * timers stay real, since replacing them process-wide (as a mock clock does) makes a network
 * client's sockets left by earlier specs cancel nothing and fire on freed state.
 */
function manualTimers(): {
  schedule: (callback: () => void, ms: number) => () => void;
  tick: (ms: number) => void;
} {
  let now = 0;
  let pending: { at: number; callback: () => void }[] = [];
  return {
    schedule(callback, ms) {
      const timer = { at: now + ms, callback };
      pending.push(timer);
      return () => {
        pending = pending.filter((other) => other !== timer);
      };
    },
    tick(ms) {
      const until = now + ms;
      for (;;) {
        const due = pending.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        pending = pending.filter((timer) => timer !== due);
        now = due.at;
        due.callback();
      }
      now = until;
    },
  };
}

/** A copy of storage as it is now: what a browser killed now leaves on disk. */
async function copyOf(items: Map<string, string>): Promise<KeyValueStorage> {
  const copy = memoryStorage();
  await copy.setItems(Object.fromEntries(items));
  return copy;
}

/**
 * Results reach storage within the flush delay of arriving, with their index, whether or not
 * more keep arriving, and with no flush call and no page being left: a browser killed at any
 * moment leaves every result set at least `flushDelayMs` earlier for the page opened again.
 * Generated paths of sets (of results and started runs' records), deletes, waits (the store's
 * timers on a clock of the spec's own) and kills (a new store over a copy of storage as it is then). Fast
 * profile: 1,000 paths (under a second); a failure prints its seed and path.
 */
describe("PersistentResultStore's flush window (generated paths with kills)", () => {
  it("should have in storage every result set at least flushDelayMs before a kill, without a flush call", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 40 }), async (steps) => {
        let now = 1_000_000;
        const items = new Map<string, string>();
        const storage: KeyValueStorage = {
          ...memoryStorage(),
          getItem: async (key) => items.get(key) ?? null,
          getItems: async (keys) =>
            Object.fromEntries(keys.map((key) => [key, items.get(key) ?? null])),
          setItems: async (entries) => {
            for (const [key, value] of Object.entries(entries)) items.set(key, value);
          },
          removeItems: async (keys) => {
            for (const key of keys) items.delete(key);
          },
        };
        const timers = manualTimers();
        const options = { flushDelayMs: FLUSH_DELAY_MS, now: () => now, schedule: timers.schedule };
        const store = new PersistentResultStore(storage, options);
        /** Each key's last result (or deletion) and when it was set. */
        const model = new Map<string, { outputs?: Record<string, unknown>; at: number }>();
        for (const step of steps) {
          if (step.kind === "set") {
            const outputs = { label: `value ${step.value}` };
            await store.set(`k${step.key}`, outputs, TTL_MS);
            model.set(`k${step.key}`, { outputs, at: now });
          } else if (step.kind === "started") {
            const outputs = { startedRun: { id: `run ${step.key}` } };
            await store.set(`started k${step.key}`, outputs, TTL_MS);
            model.set(`started k${step.key}`, { outputs, at: now });
          } else if (step.kind === "delete") {
            await store.delete(`k${step.key}`);
            model.set(`k${step.key}`, { at: now });
          } else if (step.kind === "wait") {
            now += step.ms;
            timers.tick(step.ms);
            await settle();
          } else {
            const reopened = new PersistentResultStore(await copyOf(items), options);
            for (const [key, { outputs, at }] of model) {
              if (now - at < FLUSH_DELAY_MS) continue;
              const found = await reopened.get(key);
              if (JSON.stringify(found) !== JSON.stringify(outputs)) {
                throw new Error(
                  `${key}, set ${now - at} ms before the kill: ${JSON.stringify(found)} after it`
                );
              }
            }
          }
        }
      }),
      { numRuns: 1_000 }
    );
  });
});
