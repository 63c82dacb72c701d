import { PersistentResultStore } from "../../addin/PersistentResultStore.js";
import { memoryStorage, type KeyValueStorage } from "../../addin/keyValueStorage.js";
import { hashText } from "../../addin/hashText.js";

/** The ids the stored index names, oldest first per lane (results, then started runs). */
async function indexedIds(
  storage: KeyValueStorage,
  prefix = "spellrun.results"
): Promise<string[]> {
  const head = JSON.parse((await storage.getItem(`${prefix}.index`)) ?? '{"segments":[]}') as {
    segments: string[];
  };
  const ids: string[] = [];
  for (const name of head.segments) {
    const text = (await storage.getItem(`${prefix}.index.${name}`)) ?? "";
    ids.push(...text.split("\n").map((line) => line.split(" ")[0]));
  }
  return ids;
}

describe("PersistentResultStore", () => {
  let storage: KeyValueStorage;
  let now: number;
  const clock = () => now;

  beforeEach(() => {
    storage = memoryStorage();
    now = 1_000_000;
  });

  it("should give back what was set, also from a new store over the same storage (a reload)", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("key-a", { summary: "A" }, 60_000);
    expect(await store.get("key-a")).toEqual({ summary: "A" });
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock });
    expect(await reloaded.get("key-a")).toEqual({ summary: "A" });
    expect(await reloaded.get("key-b")).toBeUndefined();
  });

  it("should forget a deleted key, in memory and in storage (a started run that ended)", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("started key-a", { startedRun: { runId: 7 } }, 60_000);
    await store.set("key-b", { summary: "B" }, 60_000);
    await store.flush();
    await store.delete("started key-a");
    expect(store.get("started key-a")).toBeUndefined();
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock });
    expect(await reloaded.get("started key-a")).toBeUndefined();
    expect(await reloaded.get("key-b")).toEqual({ summary: "B" });
  });

  it("should answer without a promise once loaded, unless the outputs must be read from storage", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("key-a", { summary: "A" }, 60_000);
    // A thousand keys at once (a recalculated column): no promise per key.
    expect(store.get("key-a")).toEqual({ summary: "A" });
    expect(store.get("key-b")).toBeUndefined();
    await store.flush();

    const reloaded = new PersistentResultStore(storage, { now: clock });
    const first = reloaded.get("key-a");
    expect(first).toBeInstanceOf(Promise); // the index is read from storage first
    expect(await first).toEqual({ summary: "A" });
    expect(reloaded.get("key-b")).toBeUndefined();
  });

  it("should forget a result after its TTL, and never store one with TTL 0", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("key-a", { v: 1 }, 1000);
    await store.set("key-b", { v: 2 }, 0);
    now += 999;
    expect(await store.get("key-a")).toEqual({ v: 1 });
    now += 1;
    expect(await store.get("key-a")).toBeUndefined();
    expect(await store.get("key-b")).toBeUndefined();
    await store.flush();
    expect(await storage.getItem("spellrun.results.index")).toBe(
      '{"ids":"hashText","segments":[]}'
    );
  });

  it("should still reuse results an earlier version stored under other ids, moving them once", async () => {
    // An earlier version: the index a bare array of rows, ids from another hash.
    const entry = JSON.stringify({ key: "key-a", outputs: { summary: "A" } });
    await storage.setItems({
      "spellrun.results.index": JSON.stringify([
        ["old-a", now + 60_000, entry.length],
        ["old-gone", now - 1, 10],
      ]),
      "spellrun.results.old-a": entry,
      "spellrun.results.old-gone": JSON.stringify({ key: "key-gone", outputs: {} }),
    });
    const store = new PersistentResultStore(storage, { now: clock });
    expect(await store.get("key-a")).toEqual({ summary: "A" });
    expect(await store.get("key-gone")).toBeUndefined();
    await store.flush();
    expect(await storage.getItem("spellrun.results.old-a")).toBeNull();
    expect(await storage.getItem("spellrun.results.old-gone")).toBeNull();
    expect((await indexedIds(storage)).length).toBe(1);
    const reloaded = new PersistentResultStore(storage, { now: clock });
    expect(await reloaded.get("key-a")).toEqual({ summary: "A" });
    expect(reloaded.size).toBe(1);
  });

  it("should evict the oldest first beyond maxEntries from storage, keeping it in memory", async () => {
    const store = new PersistentResultStore(storage, { now: clock, maxEntries: 3 });
    for (const key of ["k1", "k2", "k3", "k4"]) await store.set(key, { key }, 60_000);
    expect(store.size).toBe(4);
    expect(store.storedSize).toBe(3);
    expect(await store.get("k1")).toEqual({ key: "k1" });
    expect(store.losses().resultsNotStored).toBe(1);
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock, maxEntries: 3 });
    expect(await reloaded.get("k1")).toBeUndefined();
    expect(await reloaded.get("k4")).toEqual({ key: "k4" });
    expect(reloaded.size).toBe(3);
  });

  it("should treat setting a key again as the newest entry", async () => {
    const store = new PersistentResultStore(storage, { now: clock, maxEntries: 2 });
    await store.set("k1", { v: 1 }, 60_000);
    await store.set("k2", { v: 2 }, 60_000);
    await store.set("k1", { v: 3 }, 60_000);
    await store.set("k3", { v: 4 }, 60_000);
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock, maxEntries: 2 });
    expect(await reloaded.get("k1")).toEqual({ v: 3 });
    expect(await reloaded.get("k2")).toBeUndefined();
  });

  it("should stay within maxTotalChars and keep oversized results in memory only", async () => {
    const store = new PersistentResultStore(storage, {
      now: clock,
      maxTotalChars: 500,
      maxEntryChars: 300,
    });
    await store.set("big", { text: "x".repeat(400) }, 60_000);
    expect(await store.get("big")).toBeDefined();
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock });
    expect(await reloaded.get("big")).toBeUndefined();
    await store.set("a", { text: "a".repeat(200) }, 60_000);
    await store.set("b", { text: "b".repeat(200) }, 60_000);
    await store.flush();
    const total = [...(await indexedIds(storage))].length;
    expect(total).toBe(1); // "a" left storage for "b"
    expect(await store.get("a")).toBeDefined(); // still in memory
    const again = new PersistentResultStore(storage, { now: clock });
    expect(await again.get("a")).toBeUndefined();
    expect(await again.get("b")).toBeDefined();
  });

  it("should batch writes into one setItems per flush", async () => {
    const calls: string[] = [];
    const counting: KeyValueStorage = {
      ...storage,
      setItems: (items) => {
        calls.push(Object.keys(items).sort().join(","));
        return storage.setItems(items);
      },
    };
    const store = new PersistentResultStore(counting, { now: clock, flushDelayMs: 10 });
    await Promise.all(["k1", "k2", "k3"].map((key) => store.set(key, { key }, 60_000)));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.length).toBe(1);
    // Three results, the index's one segment and its head.
    expect(calls[0].split(",").length).toBe(5);
  });

  it("should clear everything, in memory and in storage", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("k1", { v: 1 }, 60_000);
    await store.flush();
    await store.clear();
    expect(await store.get("k1")).toBeUndefined();
    expect(await new PersistentResultStore(storage, { now: clock }).get("k1")).toBeUndefined();
  });

  it("should never give another key's outputs, even for a damaged item", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    await store.set("k1", { v: 1 }, 60_000);
    await store.flush();
    await storage.setItem(
      `spellrun.results.${hashText("k1").toString(36)}`,
      JSON.stringify({ key: "other", outputs: { v: 9 } })
    );
    expect(await new PersistentResultStore(storage, { now: clock }).get("k1")).toBeUndefined();
  });

  it("should keep working when storage fails", async () => {
    const broken: KeyValueStorage = {
      ...storage,
      getItem: () => Promise.reject(new Error("unavailable")),
      setItems: () => Promise.reject(new Error("full")),
    };
    const store = new PersistentResultStore(broken, { now: clock });
    await store.set("k1", { v: 1 }, 60_000);
    await store.flush();
    expect(await store.get("k1")).toEqual({ v: 1 });
  });

  it("should neither write nor remove an entry evicted before it was ever written", async () => {
    const written: string[] = [];
    const removed: string[] = [];
    const watched: KeyValueStorage = {
      ...storage,
      setItems: (items) => {
        written.push(...Object.keys(items));
        return storage.setItems(items);
      },
      removeItems: (keys) => {
        removed.push(...keys);
        return storage.removeItems(keys);
      },
    };
    const store = new PersistentResultStore(watched, { now: clock, maxEntries: 2 });
    for (const key of ["a", "b", "c", "d", "e"]) await store.set(`key-${key}`, { key }, 60_000);
    await store.flush();
    // The two kept, the index's segment and head; nothing of the three evicted reached storage.
    expect(written.length).toBe(4);
    expect(removed).toEqual([]);
    const reloaded = new PersistentResultStore(storage, { now: clock, maxEntries: 2 });
    expect(await reloaded.get("key-c")).toBeUndefined();
    expect(await reloaded.get("key-d")).toEqual({ key: "d" });
    expect(await reloaded.get("key-e")).toEqual({ key: "e" });
  });
  it("should move an index of the previous layout (one item of rows) into segments, keeping its results", async () => {
    const entry = JSON.stringify({ key: "key-a", outputs: { summary: "A" } });
    const id = hashText("key-a").toString(36);
    await storage.setItems({
      "spellrun.results.index": JSON.stringify({
        ids: "hashText",
        rows: [[id, now + 60_000, entry.length]],
      }),
      [`spellrun.results.${id}`]: entry,
    });
    const store = new PersistentResultStore(storage, { now: clock });
    expect(await store.get("key-a")).toEqual({ summary: "A" });
    await store.flush();
    expect(await indexedIds(storage)).toEqual([id]);
    expect(await new PersistentResultStore(storage, { now: clock }).get("key-a")).toEqual({
      summary: "A",
    });
  });

  it("should keep 20,000 typical results in memory and 10,000 in storage with its default limits", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    const key = (row: number) =>
      `["https://api.example/v1","summarize",{"text":"Review ${row}: ${"a fine product, ".repeat(8)}"}]`;
    const outputs = (row: number) => ({ summary: `Fine (${row}).`, sentiment: "positive" });
    for (let row = 0; row < 20_000; row++) await store.set(key(row), outputs(row), 60_000);
    for (let row = 0; row < 20_000; row++) {
      expect(store.get(key(row)))
        .withContext(`row ${row}`)
        .toEqual(outputs(row));
    }
    await store.flush();
    const reloaded = new PersistentResultStore(storage, { now: clock });
    expect(await reloaded.get(key(19_999))).toEqual(outputs(19_999));
    expect(reloaded.size).toBeGreaterThanOrEqual(10_000);
    // The newest are the ones kept.
    for (let row = 20_000 - reloaded.size; row < 20_000; row += 997) {
      expect(await reloaded.get(key(row)))
        .withContext(`row ${row}`)
        .toEqual(outputs(row));
    }
  });

  it("should rewrite only the index segments that changed as results stream in", async () => {
    let written = 0;
    const counting: KeyValueStorage = {
      ...storage,
      setItems: (items) => {
        for (const [name, value] of Object.entries(items)) {
          if (name.includes(".index")) written += value.length;
        }
        return storage.setItems(items);
      },
    };
    const store = new PersistentResultStore(counting, { now: clock, flushDelayMs: 1e9 });
    for (let row = 0; row < 10_000; row++) await store.set(`key-${row}`, { row }, 60_000);
    await store.flush();
    written = 0;
    await store.set("key-next", { row: 10_000 }, 60_000);
    await store.flush();
    // One segment of 500 rows of some 25 characters (and the head, as a segment was added).
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(15_000);
  });
  it("should read the results a recalculation asks for after a reload in one getItems call", async () => {
    const store = new PersistentResultStore(storage, { now: clock });
    for (let row = 0; row < 1_000; row++) await store.set(`key-${row}`, { row }, 60_000);
    await store.flush();
    const reads: number[] = [];
    const counting: KeyValueStorage = {
      ...storage,
      getItem: (key) => {
        reads.push(1);
        return storage.getItem(key);
      },
      getItems: async (keys) => {
        reads.push(keys.length);
        return (await storage.getItems?.(keys)) ?? {};
      },
    };
    const reloaded = new PersistentResultStore(counting, { now: clock });
    await reloaded.get("key-0"); // the index: its head and two segments
    reads.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, (_, row) => reloaded.get(`key-${row}`))
    );
    expect(answers).toEqual(Array.from({ length: 1_000 }, (_, row) => ({ row })));
    // key-0 was read with the index; the 999 others together.
    expect(reads).toEqual([999]);
  });
  it("should let memory go first of results storage holds, so that together they keep the most", async () => {
    // Storage holds two results, memory three: of six results set, one is lost, not three.
    const entryChars = JSON.stringify({ key: "k0", outputs: { key: "k0" } }).length;
    const store = new PersistentResultStore(storage, {
      now: clock,
      maxEntries: 2,
      maxMemoryChars: 3 * (100 + entryChars),
    });
    const keys = ["k0", "k1", "k2", "k3", "k4", "k5"];
    for (const key of keys) await store.set(key, { key }, 60_000);
    expect(store.storedSize).toBe(2);
    const answers = await Promise.all(keys.map((key) => store.get(key)));
    // k0-k2 in memory (storage let go of them), k4 and k5 in storage; k3 was in neither.
    expect(answers.map((answer) => answer?.key)).toEqual(["k0", "k1", "k2", undefined, "k4", "k5"]);
    expect(store.losses()).toEqual({
      resultsNotStored: 4,
      startedRunsNotStored: 0,
      resultsForgotten: 1,
      writesRefused: 0,
    });
  });
});
