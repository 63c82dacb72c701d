import fc from "fast-check";
import { hashText } from "../../addin/hashText.js";
import {
  PersistentResultStore,
  type PersistentResultStoreOptions,
} from "../../addin/PersistentResultStore.js";
import type { KeyValueStorage } from "../../addin/keyValueStorage.js";

/** Results of six reuse keys, and the records of runs started for three of them. */
const RESULT_KEYS = ["r0", "r1", "r2", "r3", "r4", "r5"];
const STARTED_KEYS = ["started r0", "started r1", "started r2"];
const KEYS = [...RESULT_KEYS, ...STARTED_KEYS];

/**
 * Small limits, so that the paths reach them: storage holds the three started runs' records
 * and a result or two beside them; memory some six entries. Segments of two rows.
 */
const LIMITS: PersistentResultStoreOptions = {
  prefix: "p",
  maxEntries: 4,
  maxTotalChars: 560,
  maxMemoryChars: 1200,
  maxEntryChars: 150,
  indexSegmentRows: 2,
  // Flushed only by the path's steps.
  flushDelayMs: 2 ** 30,
};
/** What an entry costs in memory besides its text (as the store counts it). */
const MEMORY_OVERHEAD_CHARS = 100;

type Step =
  | { kind: "setResult"; key: number; pad: 0 | 40 | 200; ttlMs: number }
  | { kind: "setStarted"; key: number; ttlMs: number }
  | { kind: "get"; key: number }
  | { kind: "delete"; key: number }
  | { kind: "flush" }
  | { kind: "reload" }
  | { kind: "kill" }
  | { kind: "clock"; ms: number };

const TTL = fc.constantFrom(1_000, 60_000);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("setResult" as const),
      key: fc.nat(5),
      pad: fc.constantFrom(0 as const, 40 as const, 200 as const),
      ttlMs: TTL,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("setStarted" as const), key: fc.nat(2), ttlMs: TTL }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("get" as const), key: fc.nat(KEYS.length - 1) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("delete" as const), key: fc.nat(KEYS.length - 1) }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "flush" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "kill" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("clock" as const), ms: fc.constantFrom(500, 70_000) }),
  }
);

/** A value the model knows for a key: what was set, and until when. */
interface Known {
  outputs: Record<string, unknown>;
  expiresAt: number;
  /** Characters of its stored text, as the store counts them. */
  chars: number;
}

/** The storage of one page: once the page is gone, what its store still writes goes nowhere. */
function pageStorage(
  backing: KeyValueStorage,
  batchReads: boolean
): KeyValueStorage & { gone: boolean } {
  const page = {
    gone: false,
    getItem: (key: string) => backing.getItem(key),
    // Storage with and without reads of several items in one call.
    getItems: batchReads ? backing.getItems : undefined,
    setItem: (key: string, value: string) =>
      page.gone ? Promise.resolve() : backing.setItem(key, value),
    removeItem: (key: string) => (page.gone ? Promise.resolve() : backing.removeItem(key)),
    setItems: (items: Record<string, string>) =>
      page.gone ? Promise.resolve() : backing.setItems(items),
    removeItems: (keys: string[]) => (page.gone ? Promise.resolve() : backing.removeItems(keys)),
  };
  return page;
}

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

/**
 * Fast profile: 2,000 paths (about a second); `SPELLRUN_STORE_RUNS=100000` for a long one. A
 * failure prints its seed and path (replay with fast-check's `seed` and `path`).
 */
describe("PersistentResultStore over generated paths (sets, gets, deletes, flushes, reloads, kills, clock)", () => {
  it("should keep started runs while results can go, never answer another key's or a stale value, and stay within its storage limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        async (steps, batchReads) => {
          let now = 1_000_000;
          const items = new Map<string, string>();
          const backing: KeyValueStorage = {
            getItem: async (key) => items.get(key) ?? null,
            getItems: async (keys) =>
              Object.fromEntries(keys.map((key) => [key, items.get(key) ?? null])),
            setItem: async (key, value) => void items.set(key, value),
            removeItem: async (key) => void items.delete(key),
            setItems: async (entries) => {
              for (const [key, value] of Object.entries(entries)) items.set(key, value);
            },
            removeItems: async (keys) => {
              for (const key of keys) items.delete(key);
            },
          };
          let page = pageStorage(backing, batchReads);
          const open = () => new PersistentResultStore(page, { ...LIMITS, now: () => now });
          let store = open();
          /** The latest value set for each key in the store's life (deleted: none). */
          const latest = new Map<string, Known>();
          /** Every value a key ever had: after a kill, storage may hold an older one. */
          const history = new Map<string, Set<string>>(KEYS.map((key) => [key, new Set()]));
          /** Keys set (or read back) by this page and not deleted: what its memory may hold. */
          let touched = new Set<string>();
          /** Keys set since the last flush: a kill may lose them. */
          let unflushed = new Set<string>();
          /** A kill happened since the key was last flushed: its stored value may be older. */
          const mayBeOlder = new Set<string>();
          let serial = 0;

          const live = (key: string) => {
            const known = latest.get(key);
            return known && known.expiresAt > now ? known : undefined;
          };
          const memoryNeed = () =>
            [...touched].reduce(
              (sum, key) => sum + (latest.get(key)?.chars ?? 0) + MEMORY_OVERHEAD_CHARS,
              0
            );
          /**
           * The most this page's memory was asked to hold since it started: while within the
           * limit, nothing it was given may have been forgotten.
           */
          let peakNeed = 0;
          const touch = (key: string) => {
            touched.add(key);
            peakNeed = Math.max(peakNeed, memoryNeed());
          };

          const set = async (key: string, outputs: Record<string, unknown>, ttlMs: number) => {
            await store.set(key, outputs, ttlMs);
            const chars = JSON.stringify({ key, outputs }).length;
            latest.set(key, { outputs, expiresAt: now + ttlMs, chars });
            history.get(key)?.add(JSON.stringify(outputs));
            touch(key);
            unflushed.add(key);
            mayBeOlder.delete(key);
          };

          /** Checks every key's answer against the model. */
          const checkAnswers = async (afterReload: boolean) => {
            for (const key of KEYS) {
              const answer = await store.get(key);
              const known = live(key);
              if (answer === undefined) {
                if (!known) continue;
                // A started run's record always fits (results go first): it is never lost, unless a
                // kill took it before it was written.
                if (key.startsWith("started ")) {
                  must(mayBeOlder.has(key), `the record of ${key} was lost`);
                }
                // While this page's memory holds everything it was given, nothing it set is lost.
                if (!afterReload && touched.has(key) && peakNeed <= (LIMITS.maxMemoryChars ?? 0)) {
                  must(false, `${key} forgotten with memory to spare`);
                }
                continue;
              }
              must(
                known !== undefined || mayBeOlder.has(key),
                `${key} answered after it was deleted or expired`
              );
              const text = JSON.stringify(answer);
              must(
                history.get(key)?.has(text) === true,
                `${key} answered with another key's outputs: ${text}`
              );
              if (!mayBeOlder.has(key)) {
                must(
                  text === JSON.stringify(known?.outputs),
                  `${key} answered with a stale value ${text}`
                );
                touch(key);
              }
            }
          };

          /** Storage within its limit, and holding exactly what its index names, each item its own key's. */
          const checkStorage = (flushed: boolean) => {
            let chars = 0;
            for (const [key, value] of items) chars += key.length + value.length;
            must(chars <= (LIMITS.maxTotalChars ?? 0), `storage holds ${chars} characters`);
            if (!flushed) return;
            const head = JSON.parse(items.get("p.index") ?? '{"segments":[]}') as {
              segments: string[];
            };
            const named = new Set<string>(["p.index"]);
            for (const name of head.segments) {
              named.add(`p.index.${name}`);
              for (const line of (items.get(`p.index.${name}`) ?? "").split("\n")) {
                const id = line.split(" ")[0];
                named.add(`p.${id}`);
                const entry = JSON.parse(items.get(`p.${id}`) ?? "null") as { key: string } | null;
                must(entry !== null, `index names item ${id} that storage lacks`);
                must(
                  hashText(entry?.key ?? "").toString(36) === id,
                  `item ${id} holds another key`
                );
              }
            }
            for (const key of items.keys()) must(named.has(key), `item ${key} left behind`);
            // Started runs' records always fit beside no result: storage lets results go first.
            for (const key of STARTED_KEYS) {
              if (!live(key) || mayBeOlder.has(key)) continue;
              must(named.has(`p.${hashText(key).toString(36)}`), `storage let go of ${key}`);
            }
          };

          for (const step of steps) {
            switch (step.kind) {
              case "setResult":
                await set(
                  RESULT_KEYS[step.key],
                  { v: serial++, pad: "x".repeat(step.pad) },
                  step.ttlMs
                );
                break;
              case "setStarted":
                await set(STARTED_KEYS[step.key], { startedRun: { runId: serial++ } }, step.ttlMs);
                break;
              case "get": {
                const key = KEYS[step.key];
                const answer = await store.get(key);
                if (answer !== undefined) {
                  const text = JSON.stringify(answer);
                  must(
                    history.get(key)?.has(text) === true,
                    `${key} answered with another key's outputs`
                  );
                  must(
                    live(key) !== undefined || mayBeOlder.has(key),
                    `${key} answered after delete or expiry`
                  );
                  if (!mayBeOlder.has(key)) touch(key);
                }
                break;
              }
              case "delete":
                await store.delete(KEYS[step.key]);
                latest.delete(KEYS[step.key]);
                touched.delete(KEYS[step.key]);
                mayBeOlder.delete(KEYS[step.key]);
                unflushed.add(KEYS[step.key]);
                break;
              case "flush":
                await store.flush();
                unflushed = new Set();
                break;
              case "reload":
              case "kill": {
                if (step.kind === "reload") {
                  await store.flush();
                  unflushed = new Set();
                } else {
                  // What was not flushed is lost: storage may still answer an earlier value of
                  // those keys, or a deleted one.
                  for (const key of unflushed) mayBeOlder.add(key);
                  unflushed = new Set();
                }
                page.gone = true;
                void store.flush(); // its timer, into storage that is gone
                page = pageStorage(backing, batchReads);
                store = open();
                touched = new Set();
                peakNeed = 0;
                break;
              }
              case "clock":
                now += step.ms;
                break;
            }
            checkStorage(step.kind === "flush" || step.kind === "reload");
            if (step.kind === "reload" || step.kind === "flush") {
              await checkAnswers(step.kind === "reload");
            }
          }
          await store.flush();
        }
      ),
      { numRuns: Number(process.env.SPELLRUN_STORE_RUNS ?? 2000) }
    );
  });
});
