import { indexedDbStorage } from "../../addin/indexedDbStorage.js";
import { PersistentResultStore } from "../../addin/PersistentResultStore.js";

/**
 * `indexedDbStorage` in Chromium: what a call wrote is in the database when its promise resolves
 * (a second connection, as a page opened after a kill, reads it), items an earlier version left
 * in localStorage are read and removed there, and the add-in's result store over it writes each
 * result within its flush delay, without the page being left.
 */
describe("indexedDbStorage (Chromium)", () => {
  let name: string;
  const legacyKeys: string[] = [];

  beforeEach(() => {
    name = `spellrun-spec-${Math.random().toString(36).slice(2)}`;
  });
  afterEach(async () => {
    for (const key of legacyKeys.splice(0)) localStorage.removeItem(key);
    await new Promise<void>((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  });

  it("should have what a call wrote in the database once it resolves, for another connection too", async () => {
    const storage = indexedDbStorage(indexedDB, name);
    await storage.setItems({ a: "1", b: "2", c: "3" });
    await storage.setItem("d", "4");
    await storage.removeItems(["b"]);
    await storage.removeItem("c");

    const other = indexedDbStorage(indexedDB, name);
    expect(await other.getItems?.(["a", "b", "c", "d", "e"])).toEqual({
      a: "1",
      b: null,
      c: null,
      d: "4",
      e: null,
    });
    expect(await other.getItem("a")).toBe("1");
  });

  it("should read items an earlier version left in localStorage, prefer its own, and remove both", async () => {
    const old = `${name}.old`;
    const both = `${name}.both`;
    legacyKeys.push(old, both);
    localStorage.setItem(old, "from localStorage");
    localStorage.setItem(both, "stale");
    const storage = indexedDbStorage(indexedDB, name, localStorage);
    await storage.setItem(both, "new");

    expect(await storage.getItems?.([old, both])).toEqual({
      [old]: "from localStorage",
      [both]: "new",
    });
    await storage.removeItems([old, both]);
    expect(await storage.getItems?.([old, both])).toEqual({ [old]: null, [both]: null });
    expect(localStorage.getItem(old)).toBeNull();
    expect(localStorage.getItem(both)).toBeNull();
  });

  it("should use localStorage where the database cannot be opened", async () => {
    const key = `${name}.refused`;
    legacyKeys.push(key);
    const refusing = {
      open: () => {
        const request = {} as IDBOpenDBRequest;
        setTimeout(() => request.onerror?.(new Event("error")));
        return request;
      },
    } as unknown as IDBFactory;
    const storage = indexedDbStorage(refusing, name, localStorage);
    await storage.setItems({ [key]: "kept" });
    expect(localStorage.getItem(key)).toBe("kept");
    expect(await storage.getItem(key)).toBe("kept");
    await storage.removeItem(key);
    expect(localStorage.getItem(key)).toBeNull();
    await expectAsync(indexedDbStorage(refusing, name).getItem(key)).toBeRejected();
  });

  it("should let the result store write each result within its flush delay, without a flush call or pagehide", async () => {
    const flushDelayMs = 100;
    const store = new PersistentResultStore(indexedDbStorage(indexedDB, name), { flushDelayMs });
    for (let index = 0; index < 20; index++) {
      await store.set(`key ${index}`, { label: `result ${index}` }, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The flush delay and the transaction (a few ms), with room for a busy machine.
    await new Promise((resolve) => setTimeout(resolve, flushDelayMs + 150));

    // A store over a second connection: the page opened again after the browser was killed.
    const reopened = new PersistentResultStore(indexedDbStorage(indexedDB, name), { flushDelayMs });
    for (let index = 0; index < 20; index++) {
      expect(await reopened.get(`key ${index}`)).toEqual({ label: `result ${index}` });
    }
  });
});
