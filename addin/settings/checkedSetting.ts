import { SettingsError } from "../SettingsError.js";
import { checkServiceAddress } from "./checkServiceAddress.js";
import type { SpellSettings } from "./SpellSettings.js";

/** Upper bounds that keep a typo from flooding the service or pinning results for years. */
const MAX_IN_FLIGHT = 64;
const MAX_REMEMBER_MS = 366 * 24 * 60 * 60 * 1000;
/** Bounds of the spending guard's limits: whole numbers a person can still picture paying for. */
const MAX_RUNS_BEFORE_ASKING = 100_000;
const MAX_DAILY_RUN_CAP = 1_000_000;

/**
 * Validates one setting and returns it normalised, as a one-field patch.
 *
 * ## Example
 * ```ts
 * checkedSetting("baseUrl", "https://api.example.com/"); // { baseUrl: "https://api.example.com" }
 * checkedSetting("maxInFlight", 0);                      // throws SettingsError
 * ```
 *
 * @param name The setting.
 * @param value Its new value, as given or stored.
 * @return The setting, normalised.
 * @throws SettingsError saying what values it takes (never echoing the API key).
 */
export function checkedSetting(name: keyof SpellSettings, value: unknown): Partial<SpellSettings> {
  switch (name) {
    case "apiKey":
      // Never echo the value: it is a secret.
      if (typeof value !== "string") throw new SettingsError(name, "The API key must be text.");
      return { apiKey: value.trim() };
    case "baseUrl":
    case "pollBaseUrl":
      return { [name]: checkServiceAddress(name, value) };
    case "serviceRoute":
      if (value !== "addinHost" && value !== "direct") {
        throw new SettingsError(name, `serviceRoute must be "addinHost" or "direct".`);
      }
      return { serviceRoute: value };
    case "authHeader":
      if (value !== "authorization" && value !== "x-api-key") {
        throw new SettingsError(name, `authHeader must be "authorization" or "x-api-key".`);
      }
      return { authHeader: value };
    case "maxInFlight":
      if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_IN_FLIGHT) {
        throw new SettingsError(
          name,
          `maxInFlight must be a whole number from 1 to ${MAX_IN_FLIGHT}.`
        );
      }
      return { maxInFlight: value as number };
    case "rememberMs":
      if (
        !Number.isInteger(value) ||
        (value as number) < 0 ||
        (value as number) > MAX_REMEMBER_MS
      ) {
        throw new SettingsError(
          name,
          "rememberMs must be a whole number of milliseconds, up to a year."
        );
      }
      return { rememberMs: value as number };
    case "batchRuns":
      if (typeof value !== "boolean") {
        throw new SettingsError(name, "batchRuns must be true or false.");
      }
      return { batchRuns: value };
    case "runsBeforeAsking":
      return { runsBeforeAsking: checkedCount(name, value, 0, MAX_RUNS_BEFORE_ASKING) };
    case "dailyRunCap":
      return { dailyRunCap: checkedCount(name, value, 0, MAX_DAILY_RUN_CAP) };
  }
}

/** A whole number from `min` to `max`, or a SettingsError naming the setting. */
function checkedCount(name: keyof SpellSettings, value: unknown, min: number, max: number): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw new SettingsError(
      name,
      `${name} must be a whole number from ${min} to ${max.toLocaleString("en-US")}.`
    );
  }
  return value as number;
}
