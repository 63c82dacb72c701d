import { DEFAULT_SPENDING_LIMITS, type SpendingLimits } from "../spendingPolicy.js";
import type { SpellSettings } from "../settings/SpellSettings.js";

/**
 * The guard's limits from Settings (the window is the core's).
 *
 * ## Example
 * ```ts
 * limitsOf({ runsBeforeAsking: 200, dailyRunCap: 5000 }); // { windowMs: 600000, runsBeforeAsking: 200, dailyRunCap: 5000 }
 * ```
 *
 * @param settings The threshold and the daily cap.
 * @return The limits.
 */
export function limitsOf(
  settings: Pick<SpellSettings, "runsBeforeAsking" | "dailyRunCap">
): SpendingLimits {
  return {
    windowMs: DEFAULT_SPENDING_LIMITS.windowMs,
    runsBeforeAsking: settings.runsBeforeAsking,
    dailyRunCap: settings.dailyRunCap,
  };
}
