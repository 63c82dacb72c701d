import { parseServiceUrl } from "spellrun";
import { DEFAULT_SPENDING_LIMITS } from "./spendingPolicy.js";
import { runtimeSingleton } from "./runtimeSingleton.js";
import type { ServiceRoute } from "./serviceRoute.js";
import { SettingsError } from "./SettingsError.js";
import { keyValueStorage } from "./keyValueStorage.js";

/**
 * What the add-in needs to reach the Spell Run service, and how carefully it spends runs.
 * Kept in the add-in's storage (`OfficeRuntime.storage`), never in the workbook.
 *
 * ## Example
 * ```ts
 * const settings: SpellSettings = { ...DEFAULT_SETTINGS, apiKey: "sk-..." };
 * ```
 */
export interface SpellSettings {
  /** The Spell Run API key; `""` until the user sets one. */
  apiKey: string;
  /** Host of start, bulkStart, cancelBulk and getBulkRuns. */
  baseUrl: string;
  /** Host of getRun. */
  pollBaseUrl: string;
  /**
   * Through the add-in's host (its server forwards the calls, the service needs no CORS) or
   * directly to `baseUrl` / `pollBaseUrl` (the service must allow CORS). See `serviceAddresses`.
   */
  serviceRoute: ServiceRoute;
  /** Header form of the key: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
  authHeader: "authorization" | "x-api-key";
  /** Runs in flight at once for the whole add-in; more formulas wait in a queue. */
  maxInFlight: number;
  /** How long a successful result is remembered and reused, in ms; 0 = not remembered. */
  rememberMs: number;
  /**
   * `SPELL.RUN` calls of one spell that Excel hands over together go out as bulk runs (one
   * bulkStart and one poll for many cells) instead of one run and poll each; `false` runs each
   * cell on its own.
   */
  batchRuns: boolean;
  /**
   * New runs `SPELL` formulas of one workbook may start within 10 minutes before the task pane
   * asks the user (further cells wait); see `DEFAULT_SPENDING_LIMITS` for why 100.
   */
  runsBeforeAsking: number;
  /** Runs one workbook may start in a day (formulas and the task pane's bulk runs). */
  dailyRunCap: number;
}

// Defined by webpack (webpack.config.js): the dev build points at the dev server's https proxy to
// the emulator; a production build at SPELL_BASE_URL / SPELL_POLL_BASE_URL, or "" when they were
// not given (the user must set the addresses). Undefined where webpack did not build the code
// (Node: specs, benchmarks), where the emulator's own addresses are the default.
declare const SPELLRUN_DEFAULT_BASE_URL: string | undefined;
declare const SPELLRUN_DEFAULT_POLL_BASE_URL: string | undefined;
// Defined by webpack: "addinHost" when the build named no service (its host forwards the calls),
// "direct" when it did. Undefined in Node, where the emulator is called directly.
declare const SPELLRUN_DEFAULT_SERVICE_ROUTE: ServiceRoute | undefined;
// Defined by webpack: false in a production build, whose folder must hold no loopback address.
declare const SPELLRUN_LOOPBACK_HTTP: boolean | undefined;

const builtInBaseUrl =
  typeof SPELLRUN_DEFAULT_BASE_URL === "string" ? SPELLRUN_DEFAULT_BASE_URL : undefined;
const builtInPollBaseUrl =
  typeof SPELLRUN_DEFAULT_POLL_BASE_URL === "string" ? SPELLRUN_DEFAULT_POLL_BASE_URL : undefined;
const builtInServiceRoute: ServiceRoute =
  typeof SPELLRUN_DEFAULT_SERVICE_ROUTE === "string" ? SPELLRUN_DEFAULT_SERVICE_ROUTE : "direct";
/** http:// to this computer is accepted (the emulator) except in a production build. */
const loopbackHttpAllowed =
  typeof SPELLRUN_LOOPBACK_HTTP === "boolean" ? SPELLRUN_LOOPBACK_HTTP : true;

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

/** A setting's current name. */
function currentName(name: string): string {
  return Object.hasOwn(RENAMED, name) ? RENAMED[name as keyof RenamedSettings] : name;
}

/** Storage key of the settings object. */
const SETTINGS_KEY = "spellrun.settings";
/** Upper bounds that keep a typo from flooding the service or pinning results for years. */
const MAX_IN_FLIGHT = 64;
const MAX_REMEMBER_MS = 366 * 24 * 60 * 60 * 1000;
/** Bounds of the spending guard's limits: whole numbers a person can still picture paying for. */
const MAX_RUNS_BEFORE_ASKING = 100_000;
const MAX_DAILY_RUN_CAP = 1_000_000;

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
      ([a], [b]) => Number(currentName(a) === a) - Number(currentName(b) === b)
    );
    for (const [storedName, value] of entries) {
      const name = currentName(storedName);
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
      const name = currentName(givenName);
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

function settingsState(): {
  listeners: Set<(settings: SpellSettings) => void>;
  saving: Promise<unknown>;
} {
  return runtimeSingleton("settings", () => ({ listeners: new Set(), saving: Promise.resolve() }));
}

/** Validates one setting and returns it normalised, as a one-field patch. */
function checkedSetting(name: keyof SpellSettings, value: unknown): Partial<SpellSettings> {
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

/**
 * Checks a service address (`baseUrl` or `pollBaseUrl`) as Settings would save it, and returns it
 * normalised (no trailing slash). Only https:// addresses work from the add-in: its page is
 * served over https, and a browser blocks an https page's calls to a plain-http host (mixed
 * content), so an http:// address would only fail later as "Could not reach". The exception is
 * this computer (localhost, 127.x.x.x, [::1]), which browsers treat as secure (the local
 * emulator).
 *
 * ## Example
 * ```ts
 * checkServiceAddress("baseUrl", "https://api.example.com/v1/"); // "https://api.example.com/v1"
 * checkServiceAddress("baseUrl", "http://api.example.com");      // throws SettingsError
 * ```
 *
 * @param name Which address: `baseUrl` or `pollBaseUrl`.
 * @param value What the user entered.
 * @return The address, normalised.
 * @throws SettingsError saying what is wrong and what works instead.
 */
export function checkServiceAddress(name: "baseUrl" | "pollBaseUrl", value: unknown): string {
  const label = ADDRESS_LABELS[name];
  if (typeof value === "string" && value.trim() === "") {
    throw new SettingsError(
      name,
      `Enter the ${label}: the https:// address of the Spell Run service.`
    );
  }
  const parsed = parseServiceUrl(value);
  if (!parsed.ok) {
    if (parsed.problem === "notAbsolute" || parsed.problem === "notHttp") {
      throw new SettingsError(name, `The ${label} must be an https:// address.`);
    }
    // A key pasted into the address would end up in every request line and log.
    throw new SettingsError(
      name,
      `The ${label} must not contain a user name, password, query or fragment.`
    );
  }
  if (parsed.protocol === "http:" && !(loopbackHttpAllowed && isLoopbackHost(parsed.hostname))) {
    throw new SettingsError(
      name,
      `The ${label} must use https://: the add-in runs on an https page, which may not call an http:// address on another computer (the browser blocks it).` +
        (loopbackHttpAllowed ? " http:// works only for this computer (localhost)." : "")
    );
  }
  return parsed.url;
}

/**
 * The hint under the address fields of Settings: which addresses work (a production build takes
 * https only; development also http:// to this computer, the emulator).
 *
 * ## Example
 * ```ts
 * element("p", { class: "hint" }, SERVICE_ADDRESS_HINT);
 * ```
 */
export const SERVICE_ADDRESS_HINT = loopbackHttpAllowed
  ? "https:// addresses; http:// only for this computer (localhost)."
  : "https:// addresses.";

/** How the settings form names each address. */
const ADDRESS_LABELS = { baseUrl: "Base URL", pollBaseUrl: "Poll base URL" } as const;

/** This computer: names and addresses browsers treat as potentially trustworthy over http. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}
