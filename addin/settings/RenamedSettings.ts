import type { SpellSettings } from "./SpellSettings.js";

/**
 * Settings known by an earlier name: still read from a stored object and taken by `saveSettings`,
 * as their new name.
 *
 * ## Example
 * ```ts
 * await saveSettings({ coalesceRuns: false }); // as { batchRuns: false }
 * ```
 */
export interface RenamedSettings {
  /** @deprecated The earlier name of `batchRuns` (one name for SPELL.RUN batching). */
  coalesceRuns?: boolean;
}

/** The current name of a setting stored or patched by an earlier one. */
const RENAMED: Readonly<Record<keyof RenamedSettings, keyof SpellSettings>> = {
  coalesceRuns: "batchRuns",
};

/**
 * A setting's current name: itself, or the name that replaced it (see `RenamedSettings`).
 *
 * ## Example
 * ```ts
 * currentSettingName("coalesceRuns"); // "batchRuns"
 * currentSettingName("apiKey");       // "apiKey"
 * ```
 *
 * @param name A setting's name as stored or patched.
 * @return Its current name.
 */
export function currentSettingName(name: string): string {
  return Object.hasOwn(RENAMED, name) ? RENAMED[name as keyof RenamedSettings] : name;
}
