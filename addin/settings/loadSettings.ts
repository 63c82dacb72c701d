import { keyValueStorage } from "../keyValueStorage.js";
import { checkedSetting } from "./checkedSetting.js";
import { DEFAULT_SETTINGS } from "./defaultSettings.js";
import { currentSettingName } from "./RenamedSettings.js";
import { SETTINGS_KEY } from "./settingsState.js";
import type { SpellSettings } from "./SpellSettings.js";

/**
 * Reads the settings. Missing or unusable stored values fall back to their defaults, so a
 * damaged store never stops the add-in; an address stored as `""` is not set (cells say so).
 *
 * ## Example
 * ```ts
 * const { baseUrl, apiKey } = await loadSettings();
 * ```
 *
 * @return The current settings.
 */
export async function loadSettings(): Promise<SpellSettings> {
  let stored: unknown;
  try {
    const text = await keyValueStorage().getItem(SETTINGS_KEY);
    stored = text ? JSON.parse(text) : {};
  } catch {
    stored = {};
  }
  const settings: SpellSettings = { ...DEFAULT_SETTINGS };
  if (stored && typeof stored === "object") {
    // A value stored by an earlier name yields to one stored by the current name.
    const entries = Object.entries(stored).sort(
      ([a], [b]) => Number(currentSettingName(a) === a) - Number(currentSettingName(b) === b)
    );
    for (const [storedName, value] of entries) {
      const name = currentSettingName(storedName);
      if (!(name in DEFAULT_SETTINGS)) continue;
      if ((name === "baseUrl" || name === "pollBaseUrl") && value === "") {
        settings[name] = ""; // stored as not set: stays not set, whatever the build's default
        continue;
      }
      try {
        Object.assign(settings, checkedSetting(name as keyof SpellSettings, value));
      } catch {
        // An unusable stored value keeps its default.
      }
    }
  }
  return settings;
}
