/**
 * The playground's document kept in the page's IndexedDB, as a saved Excel file would keep it:
 * cells, formulas, sheets and the document settings the add-in saved (its document id, its
 * stored job, what the spending guard needs to find its decisions), and beside them its view (the
 * sheet shown, each sheet's selection and scroll, as an Excel file keeps its sheet views). Every
 * change is saved soon after it happens (Excel's AutoSave), so a reload opens the document where
 * it was, on the sheet and cells it was left at.
 *
 * A change made just before the page goes (a reload 50 ms after Enter) is not left to an
 * IndexedDB write the unloading page may never finish: `pagehide` also writes it, synchronously, to
 * `localStorage` (an unsaved-changes journal), which the next load takes first and moves into
 * IndexedDB; a save that completes removes it.
 *
 * Limit: the browser's storage quota for the page's origin (Chromium grants an origin a share of
 * the free disk, hundreds of megabytes and more); a 10,000-row sheet of three columns is about
 * 1.5 MB. A save that fails (quota, private mode) is reported and the page goes on with the
 * document in memory.
 */
import type { Observable } from "rxjs";
import type { MockWorkbook } from "./excel/mockWorkbook.js";
import type { WorkbookSnapshot } from "./excel/workbookSnapshot.js";
import { WORKBOOK_SNAPSHOT_VERSION } from "./excel/workbookSnapshot.js";

const DATABASE = "spellrun-playground";
const STORE = "documents";
const KEY = "workbook";
/** The workbook's view (its sheet shown, each sheet's selection and scroll), saved beside it. */
const VIEW_KEY = "view";
/** `localStorage` names of what `pagehide` found not yet saved (see the file's comment). */
const UNSAVED = {
  [KEY]: "spellrun-playground.unsaved-workbook",
  [VIEW_KEY]: "spellrun-playground.unsaved-view",
};

/** Writes `value` to the journal now, synchronously (a full `localStorage` keeps the old). */
function journal(key: keyof typeof UNSAVED, value: unknown): void {
  try {
    localStorage.setItem(UNSAVED[key], JSON.stringify(value));
  } catch {
    // Over the quota or storage refused: the IndexedDB write started beside it may still land.
  }
}

/** What the journal holds for `key`, if anything readable. */
function journaled(key: keyof typeof UNSAVED): unknown {
  try {
    const text = localStorage.getItem(UNSAVED[key]);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function forgetJournal(key: keyof typeof UNSAVED): void {
  try {
    localStorage.removeItem(UNSAVED[key]);
  } catch {
    // Storage refused: the entry, if any, is older than what IndexedDB now holds only when a
    // later journal write also failed; nothing better can be done here.
  }
}

/**
 * Moves a journaled value into IndexedDB (then forgets the journal), and answers the newest of
 * the two.
 */
async function takeJournal(key: keyof typeof UNSAVED): Promise<unknown> {
  const unsaved = journaled(key);
  if (unsaved === undefined) return withStore<unknown>("readonly", (store) => store.get(key));
  await withStore("readwrite", (store) => store.put(unsaved, key));
  forgetJournal(key);
  return unsaved;
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error(`cannot open ${DATABASE}`));
  });
}

async function withStore<T>(
  mode: IDBTransactionMode,
  use: (store: IDBObjectStore) => IDBRequest<T>
): Promise<T> {
  const database = await openDatabase();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const request = use(transaction.objectStore(STORE));
      // Resolved once the transaction is committed, not when the request succeeds.
      transaction.oncomplete = () => resolve(request.result);
      transaction.onabort = () => reject(transaction.error ?? new Error("save aborted"));
      transaction.onerror = () => reject(transaction.error ?? new Error("save failed"));
    });
  } finally {
    database.close();
  }
}

/**
 * The document saved in this page, if any (one of another format version is not opened).
 *
 * ## Example
 * ```ts
 * const saved = await loadSavedDocument();
 * ```
 *
 * @return The snapshot, or undefined (the page opens the demo).
 */
export async function loadSavedDocument(): Promise<WorkbookSnapshot | undefined> {
  const saved = await takeJournal(KEY);
  const snapshot = saved as WorkbookSnapshot | undefined;
  return snapshot?.version === WORKBOOK_SNAPSHOT_VERSION ? snapshot : undefined;
}

/**
 * Forgets the saved document ("Reset to demo"): the next load opens the demo.
 *
 * ## Example
 * ```ts
 * await forgetSavedDocument();
 * location.reload();
 * ```
 */
export async function forgetSavedDocument(): Promise<void> {
  forgetJournal(KEY);
  forgetJournal(VIEW_KEY);
  await withStore("readwrite", (store) => store.delete(KEY));
  await withStore("readwrite", (store) => store.delete(VIEW_KEY));
}

/**
 * The view saved with the document (plain data, to be checked against the workbook it opens).
 *
 * ## Example
 * ```ts
 * grid.views.restore(await loadSavedView());
 * ```
 */
export function loadSavedView(): Promise<unknown> {
  return takeJournal(VIEW_KEY);
}

/**
 * Saves the workbook's view whenever it changes (a selection, a scroll, a sheet shown): changes
 * within `delayMs` of each other are saved together, and what is waiting is saved as the page
 * goes. It is small (a few numbers a sheet), so it is saved apart from the workbook's snapshot and
 * never makes the document "Saving…".
 *
 * ## Example
 * ```ts
 * const stop = keepViewSaved(() => grid.views.current(), grid.views.changes);
 * stop({ discard: true }); // "Reset to demo"
 * ```
 *
 * @param view The view now.
 * @param changes Emits when the view may have changed.
 * @param events `onError` when a save fails (the view stays in memory).
 * @param delayMs How long changes are gathered before a save. @default 150
 * @return A function that stops saving: what is waiting is saved, or with `discard` dropped.
 */
export function keepViewSaved(
  view: () => unknown,
  changes: Observable<unknown>,
  events: Pick<SavedDocumentEvents, "onError"> = {},
  delayMs = 150
): (options?: { discard?: boolean }) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saves = 0;
  const save = () => {
    timer = undefined;
    const current = view();
    saves++;
    void withStore("readwrite", (store) => store.put(current, VIEW_KEY))
      .then(() => {
        if (saves === 1 && timer === undefined) forgetJournal(VIEW_KEY);
      })
      .catch((error: unknown) => events.onError?.(error))
      .finally(() => saves--);
  };
  const subscription = changes.subscribe(() => {
    timer ??= setTimeout(save, delayMs);
  });
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    else if (saves === 0) return;
    journal(VIEW_KEY, view());
    if (timer !== undefined) save();
  };
  window.addEventListener("pagehide", flush);
  return ({ discard = false } = {}) => {
    subscription.unsubscribe();
    window.removeEventListener("pagehide", flush);
    if (discard) clearTimeout(timer);
    else if (timer !== undefined) {
      clearTimeout(timer);
      save();
    }
    timer = undefined;
  };
}

/** What `keepDocumentSaved` reports. */
export interface SavedDocumentEvents {
  /** A save is waiting or under way (true), or every change is saved (false). */
  onSaving?: (saving: boolean) => void;
  /** A save failed; the document stays in memory and the next change tries again. */
  onError?: (error: unknown) => void;
}

/**
 * Saves the workbook whenever it changes: changes within `delayMs` of each other (longer for a
 * big workbook) are saved together, one save at a time (a later snapshot never lands before an
 * earlier one).
 *
 * ## Example
 * ```ts
 * const stop = keepDocumentSaved(playground.workbook, { onSaving: (busy) => showSaving(busy) });
 * // "Reset to demo": nothing waiting is saved, not even when the page is left.
 * await stop({ discard: true });
 * await forgetSavedDocument();
 * ```
 *
 * @param workbook The playground's workbook.
 * @param events What to tell the page.
 * @param delayMs How long changes are gathered before a save. @default 150
 * @return A function that stops saving: what is waiting is saved, or with `discard` dropped
 *   (a save already under way still lands first); its promise settles once no save is left.
 */
export function keepDocumentSaved(
  workbook: MockWorkbook,
  events: SavedDocumentEvents = {},
  delayMs = 150
): (options?: { discard?: boolean }) => Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();
  let waiting = 0;
  // A big sheet's snapshot takes a while (10,000 rows: about 50 ms): saves are spaced so that
  // they take at most a fifth of the page's time while results stream in.
  let wait = delayMs;
  const save = () => {
    timer = undefined;
    const started = performance.now();
    const snapshot = workbook.snapshot();
    wait = Math.max(delayMs, 5 * (performance.now() - started));
    saving = saving
      .then(() => withStore("readwrite", (store) => store.put(snapshot, KEY)))
      .then(() => {
        // The last save waiting has landed: the journal (if the page went meanwhile and came
        // back from the back-forward cache) holds nothing newer.
        if (waiting === 1 && timer === undefined) forgetJournal(KEY);
      })
      .catch((error: unknown) => events.onError?.(error))
      .finally(() => {
        waiting--;
        if (waiting === 0 && timer === undefined) events.onSaving?.(false);
      });
  };
  workbook.onDocumentChanged = () => {
    if (timer !== undefined) return;
    waiting++;
    events.onSaving?.(true);
    timer = setTimeout(save, wait);
  };
  // Leaving the page: what is waiting or being written is journaled at once (synchronously:
  // the unloading page may never finish an IndexedDB write) and saved as well.
  const flush = () => {
    if (timer === undefined && waiting === 0) return;
    journal(KEY, workbook.snapshot());
    if (timer === undefined) return;
    clearTimeout(timer);
    save();
  };
  const stopFlush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    save();
  };
  window.addEventListener("pagehide", flush);
  return ({ discard = false }: { discard?: boolean } = {}) => {
    workbook.onDocumentChanged = undefined;
    window.removeEventListener("pagehide", flush);
    if (discard && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
      waiting--;
    } else stopFlush();
    return saving;
  };
}
