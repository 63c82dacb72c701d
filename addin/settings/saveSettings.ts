import { keyValueStorage } from "../keyValueStorage.js";
import { SettingsError } from "../SettingsError.js";
import { checkedSetting } from "./checkedSetting.js";
import { DEFAULT_SETTINGS } from "./defaultSettings.js";
import { loadSettings } from "./loadSettings.js";
import { currentSettingName, type RenamedSettings } from "./RenamedSettings.js";
import { SETTINGS_KEY, settingsState } from "./settingsState.js";
import type { SpellSettings } from "./SpellSettings.js";

/**
 * Changes some settings, stores them and tells every `onSettingsChanged` listener (in every
 * bundle of the runtime). Saves are applied one after another, so two quick saves never lose
 * each other's changes.
 *
 * ## Example
 * ```ts
 * await saveSettings({ apiKey: input.value, maxInFlight: 4 });
 * ```
 *
 * @param patch The settings to change; others keep their values (a setting's earlier name,
 *   `RenamedSettings`, is taken as its current one).
 * @return The settings after the change.
 * @throws SettingsError when a value is not acceptable (nothing is saved then).
 */
export function saveSettings(
  patch: Partial<SpellSettings> & RenamedSettings
): Promise<SpellSettings> {
  const state = settingsState();
  const saved = state.saving.then(async () => {
    const changes: Partial<SpellSettings> = {};
    for (const [givenName, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      const name = currentSettingName(givenName);
      if (!(name in DEFAULT_SETTINGS)) {
        throw new SettingsError(name, `"${name}" is not a spellrun setting.`);
      }
      Object.assign(changes, checkedSetting(name as keyof SpellSettings, value));
    }
    const settings = { ...(await loadSettings()), ...changes };
    await keyValueStorage().setItem(SETTINGS_KEY, JSON.stringify(settings));
    for (const listener of [...state.listeners]) {
      try {
        listener({ ...settings });
      } catch {
        // One failing listener must not keep the others from hearing about the change.
      }
    }
    return settings;
  });
  state.saving = saved.catch(() => undefined);
  return saved;
}
