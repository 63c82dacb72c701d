/**
 * The add-in's runtime state as a fresh load over the emulator would find it, for browser specs
 * that run spells: every setting at its default except the emulator's addresses and key, no
 * shared client, no remembered results, a spending guard with an empty ledger.
 *
 * Why: settings, the spending guard's ledger and remembered results live in the page's storage
 * and in realm-wide singletons, so they outlive a spec. A spec that saved only some settings ran
 * with whatever earlier spec files left behind, and passed or failed by the files run before it
 * (a narrow Karma run found the default guard of 100 runs in 10 minutes, the full run found the
 * 100,000 another file had saved).
 */
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { DEFAULT_SETTINGS } from "../../addin/settings/defaultSettings.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import { emulatorForBrowser } from "./emulatorClient.js";

/**
 * The spending guard's highest limits (Settings' bounds): specs about running spells are not
 * about the guard (spendingGuard.spec.ts is), and start hundreds of runs in a few minutes.
 */
export const UNGUARDED_SPENDING: Pick<SpellSettings, "runsBeforeAsking" | "dailyRunCap"> =
  Object.freeze({ runsBeforeAsking: 100_000, dailyRunCap: 1_000_000 });

/**
 * Resets the add-in's state and saves the default settings over the emulator, with the spending
 * guard out of the way and `overrides` on top. Resolves when the settings are stored and every
 * listener has heard of them.
 *
 * ## Example
 * ```ts
 * beforeEach(async () => {
 *   await freshAddinState({ maxInFlight: 8, batchRuns: true });
 *   await resetEmulator();
 * });
 * ```
 *
 * @param overrides Settings of this spec file (the rest are the defaults).
 * @return The settings saved.
 */
export async function freshAddinState(
  overrides: Partial<SpellSettings> = {}
): Promise<SpellSettings> {
  await resetSharedClient();
  await clearRememberedResults();
  const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
  const settings = await saveSettings({
    ...DEFAULT_SETTINGS,
    apiKey,
    baseUrl,
    pollBaseUrl,
    ...UNGUARDED_SPENDING,
    ...overrides,
  });
  // Drops the guard's ledger of the runs earlier specs started (it reloads with the limits above).
  await resetSpendingGuard();
  return settings;
}
