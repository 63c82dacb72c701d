import { PersistentResultStore } from "../../addin/PersistentResultStore.js";
import { memoryStorage } from "../../addin/keyValueStorage.js";
import { rememberedResultsNote } from "../../addin/rememberedResultsNote.js";

describe("rememberedResultsNote (the task pane's note on the remembered results' limits)", () => {
  const none = {
    resultsNotStored: 0,
    startedRunsNotStored: 0,
    resultsForgotten: 0,
    writesRefused: 0,
  };

  it("should say nothing while the limits cost nothing", () => {
    expect(rememberedResultsNote(none)).toBeUndefined();
  });

  it("should say what a reload will run again, and that the guard still asks", () => {
    const note = rememberedResultsNote({
      ...none,
      resultsNotStored: 1200,
      startedRunsNotStored: 1,
    });
    expect(note).toContain("1,200 results no longer fit in this computer's storage");
    expect(note).toContain("1 run in flight could not be remembered");
    expect(note).toContain("The spending guard still asks");
  });

  it("should follow a store whose storage is full, and forget it once the store is cleared", async () => {
    const store = new PersistentResultStore(memoryStorage(), { maxEntries: 2, flushDelayMs: 1 });
    await store.set("started k0", { startedRun: { runId: 1 } }, 60_000);
    for (const key of ["k1", "k2", "k3"]) await store.set(key, { key }, 60_000);
    // Two results left storage, the started run's record stayed.
    expect(store.losses()).toEqual({ ...none, resultsNotStored: 2 });
    expect(rememberedResultsNote(store.losses())).toContain("2 results no longer fit");
    await store.set("started k4", { startedRun: { runId: 2 } }, 60_000);
    await store.set("started k5", { startedRun: { runId: 3 } }, 60_000);
    expect(store.losses().startedRunsNotStored).toBe(1);
    await store.clear();
    expect(rememberedResultsNote(store.losses())).toBeUndefined();
  });
});
