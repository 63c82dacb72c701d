import { indexedDbStorage } from "./indexedDbStorage.js";
import { runtimeSingleton } from "./runtimeSingleton.js";
import type { KeyValueStorage } from "./storage/KeyValueStorage.js";

export type { KeyValueStorage };

/**
 * Where the add-in's own data lives, never the workbook: `OfficeRuntime.storage` inside Office
 * (shared by the functions and the task pane, persisted per add-in domain), else the page's
 * `localStorage`, else (Node) one in-memory map per process. `useKeyValueStorage` overrides it.
 *
 * ## Example
 * ```ts
 * const text = await keyValueStorage().getItem("spellrun.settings");
 * ```
 *
 * @return The storage to use now.
 */
export function keyValueStorage(): KeyValueStorage {
  const state = storageState();
  if (state.override) return state.override;
  const officeStorage = officeRuntimeStorage();
  if (officeStorage) return fromOfficeRuntime(officeStorage);
  const webStorage = pageLocalStorage();
  if (webStorage) return fromWebStorage(webStorage);
  state.memory ??= memoryStorage();
  return state.memory;
}

/**
 * Where the add-in keeps what money was paid for (remembered results, the spending guard's
 * counts): as `keyValueStorage`, except that a page outside Office uses its IndexedDB
 * (`indexedDbStorage`, database `spellrun-addin`, reading what earlier versions left in
 * `localStorage`) rather than `localStorage`, which Chromium writes to disk only seconds to
 * minutes after a change: a browser killed or crashed meanwhile lost results already paid for,
 * and the reopened page paid for them again. A write is on disk when its promise resolves.
 * `useKeyValueStorage` overrides it too.
 *
 * ## Example
 * ```ts
 * const store = new PersistentResultStore(durableKeyValueStorage());
 * ```
 *
 * @return The storage to use now.
 */
export function durableKeyValueStorage(): KeyValueStorage {
  const state = storageState();
  if (state.override) return state.override;
  const officeStorage = officeRuntimeStorage();
  if (officeStorage) return fromOfficeRuntime(officeStorage);
  const database = pageIndexedDb();
  if (database) {
    state.durable ??= indexedDbStorage(database, DURABLE_DATABASE, pageLocalStorage());
    return state.durable;
  }
  return keyValueStorage();
}

/**
 * Replaces the storage (benchmarks, specs); `undefined` goes back to the automatic choice.
 *
 * ## Example
 * ```ts
 * useKeyValueStorage(memoryStorage());
 * ```
 *
 * @param storage The storage to use from now on.
 */
export function useKeyValueStorage(storage: KeyValueStorage | undefined): void {
  storageState().override = storage;
}

/**
 * A `KeyValueStorage` in memory, for Node and specs.
 *
 * ## Example
 * ```ts
 * useKeyValueStorage(memoryStorage());
 * ```
 *
 * @return A new, empty storage.
 */
export function memoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: async (key) => items.get(key) ?? null,
    getItems: async (keys) => Object.fromEntries(keys.map((key) => [key, items.get(key) ?? null])),
    setItem: async (key, value) => void items.set(key, value),
    removeItem: async (key) => void items.delete(key),
    setItems: async (entries) => {
      for (const [key, value] of Object.entries(entries)) items.set(key, value);
    },
    removeItems: async (keys) => {
      for (const key of keys) items.delete(key);
    },
  };
}

/** The IndexedDB database of `durableKeyValueStorage` in a page outside Office. */
const DURABLE_DATABASE = "spellrun-addin";

function storageState(): {
  override?: KeyValueStorage;
  memory?: KeyValueStorage;
  durable?: KeyValueStorage;
} {
  return runtimeSingleton("keyValueStorage", () => ({}));
}

function officeRuntimeStorage(): OfficeRuntime.Storage | undefined {
  if (typeof OfficeRuntime === "undefined") return undefined;
  return OfficeRuntime.storage ?? undefined;
}

function pageIndexedDb(): IDBFactory | undefined {
  try {
    return typeof indexedDB === "undefined" ? undefined : indexedDB;
  } catch {
    // Reading `indexedDB` throws a SecurityError where the page may not use storage.
    return undefined;
  }
}

function pageLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    // Reading `localStorage` throws a SecurityError where the page may not use storage.
    return undefined;
  }
}

function fromOfficeRuntime(storage: OfficeRuntime.Storage): KeyValueStorage {
  return {
    getItem: (key) => storage.getItem(key),
    getItems: (keys) => storage.getItems(keys),
    setItem: (key, value) => storage.setItem(key, value),
    removeItem: (key) => storage.removeItem(key),
    setItems: (items) => storage.setItems(items),
    removeItems: (keys) => storage.removeItems(keys),
  };
}

function fromWebStorage(storage: Storage): KeyValueStorage {
  return {
    getItem: async (key) => storage.getItem(key),
    getItems: async (keys) => Object.fromEntries(keys.map((key) => [key, storage.getItem(key)])),
    setItem: async (key, value) => storage.setItem(key, value),
    removeItem: async (key) => storage.removeItem(key),
    setItems: async (items) => {
      for (const [key, value] of Object.entries(items)) storage.setItem(key, value);
    },
    removeItems: async (keys) => {
      for (const key of keys) storage.removeItem(key);
    },
  };
}
