import { settingsState } from "./settingsState.js";
import type { SpellSettings } from "./SpellSettings.js";

/**
 * Calls `listener` after every `saveSettings`, from any bundle of the runtime.
 *
 * ## Example
 * ```ts
 * const stop = onSettingsChanged((settings) => render(settings));
 * // later
 * stop();
 * ```
 *
 * @param listener Gets the settings after each change.
 * @return A function that stops the calls.
 */
export function onSettingsChanged(listener: (settings: SpellSettings) => void): () => void {
  const { listeners } = settingsState();
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
