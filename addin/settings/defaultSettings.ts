import { DEFAULT_SPENDING_LIMITS } from "../spendingPolicy.js";
import type { ServiceRoute } from "../serviceRoute.js";
import type { SpellSettings } from "./SpellSettings.js";

// Defined by webpack (webpack.config.js): the dev build points at the dev server's https proxy to
// the emulator; a production build at SPELL_BASE_URL / SPELL_POLL_BASE_URL, or "" when they were
// not given (the user must set the addresses). Undefined where webpack did not build the code
// (Node: specs, benchmarks), where the emulator's own addresses are the default.
declare const SPELLRUN_DEFAULT_BASE_URL: string | undefined;
declare const SPELLRUN_DEFAULT_POLL_BASE_URL: string | undefined;
// Defined by webpack: "addinHost" when the build named no service (its host forwards the calls),
// "direct" when it did. Undefined in Node, where the emulator is called directly.
declare const SPELLRUN_DEFAULT_SERVICE_ROUTE: ServiceRoute | undefined;

// Kept in this one file with what reads them: a production build folds the checks below and
// drops the emulator's addresses, which its folder must not hold.
const builtInBaseUrl =
  typeof SPELLRUN_DEFAULT_BASE_URL === "string" ? SPELLRUN_DEFAULT_BASE_URL : undefined;
const builtInPollBaseUrl =
  typeof SPELLRUN_DEFAULT_POLL_BASE_URL === "string" ? SPELLRUN_DEFAULT_POLL_BASE_URL : undefined;
const builtInServiceRoute: ServiceRoute =
  typeof SPELLRUN_DEFAULT_SERVICE_ROUTE === "string" ? SPELLRUN_DEFAULT_SERVICE_ROUTE : "direct";

/**
 * The local emulator's own addresses (`npm run emulator`): the default where no build named a
 * service (Node specs and benchmarks). The one place to change when the emulator moves.
 *
 * ## Example
 * ```ts
 * await saveSettings({ ...EMULATOR_ADDRESSES });
 * ```
 */
// Pure: a production build, which never reads it, drops it (its folder holds no loopback address).
export const EMULATOR_ADDRESSES = /* @__PURE__ */ Object.freeze({
  baseUrl: "http://127.0.0.1:3001",
  pollBaseUrl: "http://127.0.0.1:3002",
});

/**
 * The service addresses the settings start with, from what the build named: an address when it
 * named one (`npm start`'s dev build: the emulator behind the dev server's https proxy; a
 * production build: `SPELL_BASE_URL` / `SPELL_POLL_BASE_URL`), `""` (not set) when a build named
 * none, so that cells say the address is not set instead of calling a 127.0.0.1 that is not there
 * on the user's machine, and the emulator's own addresses where no build ran (Node).
 *
 * ## Example
 * ```ts
 * defaultServiceAddresses({ baseUrl: "", pollBaseUrl: "" });        // { baseUrl: "", pollBaseUrl: "" }
 * defaultServiceAddresses({ baseUrl: undefined, pollBaseUrl: undefined }); // EMULATOR_ADDRESSES
 * ```
 *
 * @param builtIn What the build defined for each address (`undefined`: not a webpack build).
 * @return The default `baseUrl` and `pollBaseUrl`.
 */
export function defaultServiceAddresses(builtIn: {
  baseUrl: string | undefined;
  pollBaseUrl: string | undefined;
}): { baseUrl: string; pollBaseUrl: string } {
  return {
    baseUrl: builtIn.baseUrl ?? EMULATOR_ADDRESSES.baseUrl,
    pollBaseUrl: builtIn.pollBaseUrl ?? EMULATOR_ADDRESSES.pollBaseUrl,
  };
}

/**
 * The settings before the user changes anything; the addresses are `defaultServiceAddresses`.
 *
 * ## Example
 * ```ts
 * if (!settings.baseUrl) console.log("service address not set yet");
 * ```
 */
export const DEFAULT_SETTINGS: Readonly<SpellSettings> = Object.freeze({
  apiKey: "",
  // A webpack build always names its addresses ("" for none): then the emulator's addresses are
  // not referenced, so they do not reach the folder a production build hosts.
  ...(typeof builtInBaseUrl === "string" && typeof builtInPollBaseUrl === "string"
    ? { baseUrl: builtInBaseUrl, pollBaseUrl: builtInPollBaseUrl }
    : defaultServiceAddresses({ baseUrl: builtInBaseUrl, pollBaseUrl: builtInPollBaseUrl })),
  serviceRoute: builtInServiceRoute,
  authHeader: "authorization",
  maxInFlight: 8,
  rememberMs: 24 * 60 * 60 * 1000,
  batchRuns: true,
  runsBeforeAsking: DEFAULT_SPENDING_LIMITS.runsBeforeAsking,
  dailyRunCap: DEFAULT_SPENDING_LIMITS.dailyRunCap,
});
