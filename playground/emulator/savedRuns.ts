/**
 * The in-page emulator's runs kept in the page's localStorage, beside the saved document: a real
 * service keeps its runs while Excel reloads, so the emulator in the page does too (a pane run
 * reloaded mid-way resumes and finishes, its finished rows not run again). "Reset to demo"
 * forgets them with the document.
 *
 * Limit: localStorage's quota for the origin (about 5 MB of text); a save that does not fit is
 * skipped and the runs live as long as the page, as before.
 */
import type { RunStoreSnapshot } from "../../emulator/runStore.js";

const KEY = "spellrun.playground.emulatorRuns";

/** What the in-page emulator saves: its store and the numbers its next ids continue from. */
export interface SavedRuns {
  store: RunStoreSnapshot;
  runNumber: number;
  groupNumber: number;
}

/**
 * The runs saved in this page, if any (unreadable text is ignored).
 *
 * ## Example
 * ```ts
 * const saved = loadSavedRuns();
 * if (saved) store.restore(saved.store, spells);
 * ```
 */
export function loadSavedRuns(): SavedRuns | undefined {
  try {
    const text = globalThis.localStorage?.getItem(KEY);
    if (!text) return undefined;
    const saved = JSON.parse(text) as Partial<SavedRuns>;
    return Array.isArray(saved.store?.runs) && Array.isArray(saved.store?.groups)
      ? (saved as SavedRuns)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saves the emulator's runs (a save that does not fit the quota is skipped).
 *
 * ## Example
 * ```ts
 * saveRuns({ store: store.snapshot(), runNumber, groupNumber });
 * ```
 *
 * @return Whether the runs were saved.
 */
export function saveRuns(saved: SavedRuns): boolean {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(saved));
    return true;
  } catch {
    return false;
  }
}

/**
 * Forgets the saved runs ("Reset to demo").
 *
 * ## Example
 * ```ts
 * forgetSavedRuns();
 * ```
 */
export function forgetSavedRuns(): void {
  try {
    globalThis.localStorage?.removeItem(KEY);
  } catch {
    // Nothing saved can be read either.
  }
}
