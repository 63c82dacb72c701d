import { PersistentResultStore } from "./PersistentResultStore.js";
import { runtimeSingleton } from "./runtimeSingleton.js";
import { durableKeyValueStorage } from "./keyValueStorage.js";
import { rememberedResultsNote } from "./rememberedResultsNote.js";

interface RememberedState {
  store?: PersistentResultStore;
}

/**
 * The runtime's one store of successful results (in `OfficeRuntime.storage`), which the shared
 * client reuses for recalculation and reopened workbooks.
 *
 * ## Example
 * ```ts
 * const outputs = await rememberedResults().get(client.reuseKey("summarize", { text }));
 * ```
 *
 * @return The store, created over the current storage on first use.
 */
export function rememberedResults(): PersistentResultStore {
  const state = rememberedState();
  state.store ??= new PersistentResultStore(durableKeyValueStorage());
  return state.store;
}

/**
 * Forgets every remembered result (the task pane's "clear remembered results" button), so the
 * next calculation runs the spells again.
 *
 * ## Example
 * ```ts
 * await clearRememberedResults();
 * await Excel.run(async (context) => {
 *   context.workbook.application.calculate(Excel.CalculationType.full);
 *   await context.sync();
 * });
 * ```
 */
export async function clearRememberedResults(): Promise<void> {
  await rememberedResults().clear();
}

/**
 * The task pane's note on the remembered results' limits (`rememberedResultsNote`), or
 * `undefined` while they have cost nothing.
 *
 * ## Example
 * ```ts
 * const note = rememberedResultsLimitNote();
 * if (note) say(note);
 * ```
 */
export function rememberedResultsLimitNote(): string | undefined {
  return rememberedResultsNote(rememberedResults().losses());
}

/**
 * Writes pending results and drops the in-memory store, so the next use reads storage afresh,
 * as after a reload of the add-in. For specs and benchmarks.
 *
 * ## Example
 * ```ts
 * await forgetRememberedResultsInMemory();
 * ```
 */
export async function forgetRememberedResultsInMemory(): Promise<void> {
  const state = rememberedState();
  const store = state.store;
  state.store = undefined;
  await store?.flush();
}

function rememberedState(): RememberedState {
  return runtimeSingleton("rememberedResults", () => ({}));
}
