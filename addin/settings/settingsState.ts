import { runtimeSingleton } from "../runtimeSingleton.js";
import type { SpellSettings } from "./SpellSettings.js";

/**
 * Storage key of the settings object (`OfficeRuntime.storage`; `localStorage` outside Office).
 *
 * ## Example
 * ```ts
 * await keyValueStorage().getItem(SETTINGS_KEY);
 * ```
 */
export const SETTINGS_KEY = "spellrun.settings";

/**
 * The runtime's one record of settings listeners and of the save in progress, shared by every
 * bundle (see `runtimeSingleton`).
 *
 * ## Example
 * ```ts
 * settingsState().listeners.add(render);
 * ```
 *
 * @return The shared state.
 */
export function settingsState(): {
  listeners: Set<(settings: SpellSettings) => void>;
  saving: Promise<unknown>;
} {
  return runtimeSingleton("settings", () => ({ listeners: new Set(), saving: Promise.resolve() }));
}
