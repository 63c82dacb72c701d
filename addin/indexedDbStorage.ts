import type { KeyValueStorage } from "./storage/KeyValueStorage.js";

/** The object store that holds the items, one record per item (its name is the record's key). */
const STORE = "items";

/**
 * A `KeyValueStorage` in the page's IndexedDB, for pages outside Office (the playground, a task
 * pane opened in a browser). Unlike `localStorage`, which Chromium writes to disk only some
 * seconds after a change (5 s, and at most 60 times an hour per origin, so a busy page waits a
 * minute and more), a write here is on disk once its transaction completes, and each call
 * resolves only then: what was written survives a browser that is killed or crashes.
 *
 * Items `legacy` holds (the page's `localStorage`, where earlier versions kept them) are read
 * when the database has no item of that name, and removed from there too, so that nothing
 * written before is lost and nothing removed comes back. Writes go to the database only, unless
 * it cannot be opened (a page not allowed to use it): then every call goes to `legacy`.
 *
 * ## Example
 * ```ts
 * const storage = indexedDbStorage(indexedDB, "spellrun-addin", localStorage);
 * await storage.setItems({ a: "1", b: "2" }); // on disk when this resolves
 * ```
 *
 * @param factory the page's `indexedDB`
 * @param databaseName the database's name
 * @param legacy where items were kept before, read when the database has none
 * @return the storage (the database is opened on first use, and stays open)
 */
export function indexedDbStorage(
  factory: IDBFactory,
  databaseName: string,
  legacy?: Storage
): KeyValueStorage {
  let opened: Promise<IDBDatabase> | undefined;
  const database = (): Promise<IDBDatabase> => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => {
        const db = request.result;
        // Another page upgrading or deleting the database: let go, open again on next use.
        db.onversionchange = () => {
          db.close();
          opened = undefined;
        };
        db.onclose = () => {
          opened = undefined;
        };
        resolve(db);
      };
      request.onerror = () => {
        opened = undefined;
        reject(request.error ?? new Error(`cannot open ${databaseName}`));
      };
    });
    return opened;
  };
  /**
   * Runs `use` in one transaction; resolves once the transaction is complete (on disk). Where
   * the database cannot be opened (the page may not use it), `instead` answers from `legacy`.
   */
  const transact = async <T>(
    mode: IDBTransactionMode,
    use: (store: IDBObjectStore) => () => T,
    instead: (storage: Storage) => T
  ): Promise<T> => {
    let db: IDBDatabase;
    try {
      db = await database();
    } catch (error) {
      if (!legacy) throw error;
      return instead(legacy);
    }
    return new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const result = use(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result());
      transaction.onabort = () => reject(transaction.error ?? new Error("storage write aborted"));
      transaction.onerror = () => reject(transaction.error ?? new Error("storage write failed"));
    });
  };
  const legacyItem = (key: string): string | null => {
    try {
      return legacy?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const forgetLegacy = (keys: string[]): void => {
    try {
      for (const key of keys) legacy?.removeItem(key);
    } catch {
      // Nothing there can be read either.
    }
  };
  const getItems = (keys: string[]): Promise<Record<string, string | null>> =>
    transact(
      "readonly",
      (store) => {
        const requests = keys.map((key) => store.get(key));
        return () =>
          Object.fromEntries(
            keys.map((key, index) => {
              const value: unknown = requests[index].result;
              return [key, typeof value === "string" ? value : legacyItem(key)];
            })
          );
      },
      () => Object.fromEntries(keys.map((key) => [key, legacyItem(key)]))
    );
  const setItems = (items: Record<string, string>): Promise<void> =>
    transact(
      "readwrite",
      (store) => {
        for (const [key, value] of Object.entries(items)) store.put(value, key);
        return () => undefined;
      },
      (storage) => {
        for (const [key, value] of Object.entries(items)) storage.setItem(key, value);
      }
    );
  const removeItems = async (keys: string[]): Promise<void> => {
    await transact(
      "readwrite",
      (store) => {
        for (const key of keys) store.delete(key);
        return () => undefined;
      },
      () => undefined
    );
    forgetLegacy(keys);
  };
  return {
    getItem: async (key) => (await getItems([key]))[key] ?? null,
    getItems,
    setItem: (key, value) => setItems({ [key]: value }),
    removeItem: (key) => removeItems([key]),
    setItems,
    removeItems,
  };
}
