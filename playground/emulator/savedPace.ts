/**
 * The "Spells take" choice kept in the page's localStorage: it is a setting of the page, as the
 * in-page emulator's runs are kept across a reload, so a reload goes on at the pace chosen.
 */
import { SPELL_PACES, type SpellPace } from "./spellPace.js";

const KEY = "spellrun.playground.pace";

/**
 * The pace chosen in this page before, if any (anything else stored is ignored).
 *
 * ## Example
 * ```ts
 * const pace = loadSavedPace() ?? "fast";
 * ```
 */
export function loadSavedPace(): SpellPace | undefined {
  try {
    const text = globalThis.localStorage?.getItem(KEY);
    return SPELL_PACES.find(({ pace }) => pace === text)?.pace;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the pace chosen (a page whose storage is full or refused keeps it as long as the page).
 *
 * ## Example
 * ```ts
 * savePace("minute");
 * ```
 */
export function savePace(pace: SpellPace): void {
  try {
    globalThis.localStorage?.setItem(KEY, pace);
  } catch {
    // The choice lasts as long as the page.
  }
}
