import { SpellClient } from "spellrun";
import { MissingApiKeyError } from "./MissingApiKeyError.js";
import type { SpellSettings } from "./settings/SpellSettings.js";
import { loadSettings } from "./settings/loadSettings.js";
import { onSettingsChanged } from "./settings/onSettingsChanged.js";
import { runtimeSingleton } from "./runtimeSingleton.js";
import { ServiceAddressNotSetError } from "./ServiceAddressNotSetError.js";
import { serviceAddresses } from "./serviceRoute.js";
import { organisationRoute } from "./organisation/organisationRoute.js";

/**
 * How long the shared client waits for more `SPELL.RUN` calls of a spell before sending them as
 * one bulk run: long enough for the calls of one recalculation, short next to any run.
 */
const BATCH_WINDOW_MS = 50;
/**
 * How long a run whose last cell left (Excel cancelled the call: its input changed, Undo) goes
 * on before it is cancelled: a cell coming back with the same inputs within it watches the same
 * run instead of paying for a new one.
 */
const CELL_CANCEL_GRACE_MS = 10_000;

/**
 * What all answers being read at once may hold in the shared runtime, which also runs Excel's
 * calculation of every `SPELL` cell and the task pane: 256 MiB. Each answer's cap is this over
 * the requests in flight, so 8 in flight (the default) read up to 32 MiB each and 64 (the
 * highest setting) 4 MiB each, instead of the core's 64 MiB each (4 GiB at 64, far beyond what
 * a WebView gives an add-in). 4 MiB still holds a 500-row bulk answer of ~8 KB per row, and one
 * run's outputs far beyond the 32,767 characters a cell shows.
 */
const ANSWER_BUDGET_BYTES = 256 * 1024 * 1024;

interface SharedClientState {
  client?: Promise<{ client: SpellClient; settings: SpellSettings }>;
  /** What `client` resolved to, while it is current (no await on the hot path). */
  ready?: { client: SpellClient; settings: SpellSettings };
  stopListening?: () => void;
}

/**
 * The runtime's one `SpellClient`, used by every custom function and the task pane, so that
 * identical calls share one run, successes are remembered across reloads (`rememberedResults`),
 * the in-flight limit holds for the whole add-in, and (setting `batchRuns`, on by default)
 * polling-mode runs of one spell arriving together go out as one bulk run. Built from the settings on first use and
 * rebuilt after every `saveSettings`.
 *
 * ## Example
 * ```ts
 * const client = await sharedClient();
 * client.run("summarize", { text }, { wait: false }).subscribe(console.log);
 * ```
 *
 * @return The client.
 * @throws ServiceAddressNotSetError when the service addresses are not set, MissingApiKeyError
 *   when no key is set.
 */
export async function sharedClient(): Promise<SpellClient> {
  return (await sharedClientWithSettings()).client;
}

/**
 * The shared client and the settings it was built from (error messages name the service).
 *
 * ## Example
 * ```ts
 * const { client, settings } = await sharedClientWithSettings();
 * ```
 *
 * @return The client and its settings.
 * @throws ServiceAddressNotSetError when the service addresses are not set, MissingApiKeyError
 *   when no key is set.
 */
export function sharedClientWithSettings(): Promise<{
  client: SpellClient;
  settings: SpellSettings;
}> {
  const state = clientState();
  state.stopListening ??= onSettingsChanged(() => {
    state.client = undefined;
    state.ready = undefined;
  });
  if (!state.client) {
    const building = loadSettings().then(async (settings) => {
      // The add-in's host may be the organisation's gateway (asked whatever the stored route):
      // it holds the key, users sign in, and the calls go through it.
      const { organisation, serviceRoute } = await organisationRoute(settings);
      // Through the add-in's host: its own /spell-api and /spell-poll; directly: Settings'.
      const called = serviceAddresses({ ...settings, serviceRoute });
      const unset = (["baseUrl", "pollBaseUrl"] as const).filter((name) => !called[name]);
      if (unset.length > 0) throw new ServiceAddressNotSetError(unset);
      if (!organisation && !settings.apiKey) throw new MissingApiKeyError();
      // Loaded here, not carried by functions.js at start: the result store, and the
      // organisation's sign-in only where there is one.
      const [{ rememberedResults }, connection] = await Promise.all([
        import("./rememberedResults.js"),
        organisation
          ? import("./organisation/organisationConnection.js").then((module) =>
              module.organisationConnection(organisation)
            )
          : { apiKey: settings.apiKey, authHeader: settings.authHeader },
      ]);
      const client = new SpellClient({
        ...connection,
        baseUrl: called.baseUrl,
        pollBaseUrl: called.pollBaseUrl,
        maxInFlight: settings.maxInFlight,
        // The setting means runs at once (what a user can picture and pay for), requests too.
        maxRunsInProgress: settings.maxInFlight,
        maxResponseBytes: Math.floor(ANSWER_BUDGET_BYTES / settings.maxInFlight),
        reuse: {
          ttlMs: settings.rememberMs,
          store: rememberedResults(),
          // A cell whose input comes back (changed back, Undo then Redo) watches its run again.
          cancelGraceMs: CELL_CANCEL_GRACE_MS,
        },
        // SPELL.RUN filled down a column: Excel hands the calls of one recalculation over
        // together, so they go out as bulk runs (Settings can turn this off).
        batch: settings.batchRuns ? { windowMs: BATCH_WINDOW_MS } : false,
      });
      const ready = { client, settings };
      // Only while still current: settings saved meanwhile make a newer client.
      if (state.client === building) state.ready = ready;
      return ready;
    });
    state.client = building;
    // A missing key or address is not remembered: the next call reads the settings again.
    building.catch(() => {
      if (state.client === building) state.client = undefined;
    });
  }
  return state.client;
}

/**
 * The shared client and its settings when they are already built and current, else `undefined`
 * (then use `sharedClientWithSettings`). Lets a call that arrives with thousands of others (a
 * filled-down column) start without waiting a turn of the event loop.
 *
 * ## Example
 * ```ts
 * const ready = sharedClientIfReady() ?? (await sharedClientWithSettings());
 * ```
 */
export function sharedClientIfReady():
  { client: SpellClient; settings: SpellSettings } | undefined {
  return clientState().ready;
}

/**
 * Drops the shared client and the in-memory remembered results (after writing them), as a reload
 * of the add-in would; the next call builds both from storage. For specs and benchmarks.
 *
 * ## Example
 * ```ts
 * await resetSharedClient();
 * ```
 */
export async function resetSharedClient(): Promise<void> {
  clientState().client = undefined;
  clientState().ready = undefined;
  const { forgetRememberedResultsInMemory } = await import("./rememberedResults.js");
  await forgetRememberedResultsInMemory();
}

function clientState(): SharedClientState {
  return runtimeSingleton("sharedClient", () => ({}));
}
