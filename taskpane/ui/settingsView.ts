import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import {
  SERVICE_ADDRESS_HINT,
  checkServiceAddress,
} from "../../addin/settings/checkServiceAddress.js";
import { serviceAddresses } from "../../addin/serviceRoute.js";
import { SettingsError } from "../../addin/SettingsError.js";
import type { ConnectionCheck } from "./testConnection.js";
import { element } from "./element.js";
import { labelledSelect } from "./labelledSelect.js";

/**
 * What the settings view needs; the task pane passes the real modules, specs and screenshots
 * may pass others.
 *
 * ## Example
 * ```ts
 * const deps: SettingsViewDeps = { loadSettings, saveSettings, testConnection, clearRememberedResults, recalculate: recalculateWorkbook };
 * ```
 */
export interface SettingsViewDeps {
  loadSettings(): Promise<SpellSettings>;
  saveSettings(patch: Partial<SpellSettings>): Promise<SpellSettings>;
  testConnection(settings: SpellSettings): Promise<ConnectionCheck>;
  clearRememberedResults(): Promise<void>;
  /**
   * What the remembered results' limits cost, when they did (`rememberedResultsLimitNote`):
   * shown above "Clear remembered results".
   */
  rememberedNote?(): string | undefined;
  recalculate(): Promise<void>;
}

type ValueElement = HTMLElement & { value: string; checked?: boolean };

const HOUR_MS = 3_600_000;

/**
 * The attribute on the settings the organisation mode takes over (the route to the service, its
 * addresses, the key's header): `mountOrganisationPanel` hides what carries it.
 */
const SERVER_HELD = "data-server-held";

/**
 * The settings form: API key (masked, show/hide), base URL, poll base URL, auth header form,
 * runs in flight, how long results are remembered; Save, Test connection, Clear remembered
 * results. Everything is stored through `addin/settings.ts` (the add-in's storage, never the
 * workbook).
 *
 * ## Example
 * ```ts
 * await mountSettingsView(document.getElementById("settings")!, deps);
 * ```
 */
export async function mountSettingsView(root: HTMLElement, deps: SettingsViewDeps): Promise<void> {
  const apiKey = element(
    "fluent-text-field",
    { id: "api-key", type: "password", autocomplete: "off", spellcheck: "false" },
    "API key"
  ) as ValueElement;
  const showKey = element(
    "fluent-button",
    // No aria-controls: the button forwards it into its shadow root, where "api-key" is no id
    // (an invalid reference, axe-core's aria-valid-attr-value); aria-pressed says the state.
    { id: "show-key", "aria-pressed": "false" },
    "Show"
  );
  const baseUrl = element(
    "fluent-text-field",
    { id: "base-url", type: "url", placeholder: "https://… (not set)" },
    "Base URL"
  ) as ValueElement;
  const pollBaseUrl = element(
    "fluent-text-field",
    { id: "poll-base-url", type: "url", placeholder: "https://… (not set)" },
    "Poll base URL"
  ) as ValueElement;
  const fieldOf: Partial<Record<string, HTMLElement>> = { baseUrl, pollBaseUrl };
  const { field: routeField, select: serviceRoute } = labelledSelect(
    "service-route",
    "Reach the service",
    [
      ["addinHost", "Through the add-in's host"],
      ["direct", "Directly (the service allows CORS)"],
    ]
  );
  const addresses = element(
    "div",
    { id: "service-addresses" },
    baseUrl,
    pollBaseUrl,
    element("p", { class: "hint" }, SERVICE_ADDRESS_HINT)
  );
  // Through the add-in's host the addresses are the host's own: the fields do not apply.
  const showAddresses = () =>
    (addresses.hidden = serviceRoute.value === "addinHost" || addresses.hasAttribute(SERVER_HELD));
  serviceRoute.addEventListener("change", showAddresses);
  const { field: authField, select: authHeader } = labelledSelect(
    "auth-header",
    "Send the key as",
    [
      ["authorization", "Authorization: Bearer <key>"],
      ["x-api-key", "x-api-key: <key>"],
    ]
  );
  // What the organisation mode hides (mountOrganisationPanel): the server holds the key and
  // every call goes through it.
  for (const part of [routeField, addresses, authField]) part.setAttribute(SERVER_HELD, "");
  const maxInFlight = numberField("max-in-flight", 1, 64, "Runs in flight at once");
  const rememberHours = numberField("remember-hours", 0, 8784, "Remember results for (hours)");
  const batchRuns = element(
    "fluent-checkbox",
    { id: "batch-runs" },
    "Send SPELL.RUN cells of one spell together as bulk runs"
  ) as ValueElement;
  const runsBeforeAsking = numberField(
    "runs-before-asking",
    0,
    100000,
    "SPELL runs in 10 minutes before asking"
  );
  const dailyRunCap = numberField(
    "daily-run-cap",
    0,
    1000000,
    "Runs a day per workbook (formulas and bulk runs)"
  );
  const save = element("fluent-button", { id: "save-settings", appearance: "accent" }, "Save");
  const test = element("fluent-button", { id: "test-connection" }, "Test connection");
  const clear = element("fluent-button", { id: "clear-results" }, "Clear remembered results");
  const rememberedNote = element("p", { id: "remembered-note", class: "hint", hidden: "" });
  /** The note read again: on mount, when the form is used, after a clear. */
  const showRememberedNote = () => {
    const note = deps.rememberedNote?.();
    rememberedNote.textContent = note ?? "";
    rememberedNote.hidden = note === undefined;
  };
  const status = element("p", {
    id: "settings-status",
    class: "status",
    role: "status",
    "aria-live": "polite",
  });

  root.replaceChildren(
    element(
      "form",
      { class: "stack", "aria-label": "Connection settings" },
      element("div", { class: "key-row" }, apiKey, showKey),
      element(
        "p",
        { class: "hint" },
        "Stored in this add-in's own storage on this computer, never in the workbook."
      ),
      routeField,
      addresses,
      authField,
      maxInFlight,
      rememberHours,
      batchRuns,
      runsBeforeAsking,
      dailyRunCap,
      element(
        "p",
        { class: "hint" },
        "Beyond these, SPELL cells wait until you allow or block them on the Run tab."
      ),
      element("div", { class: "actions" }, save, test),
      element("fluent-divider", {}),
      element(
        "p",
        { class: "hint" },
        "Forget every remembered result and recalculate the workbook: SPELL formulas run again (and may cost again)."
      ),
      rememberedNote,
      element("div", { class: "actions" }, clear),
      status
    )
  );

  const fill = (settings: SpellSettings) => {
    apiKey.value = settings.apiKey;
    serviceRoute.value = settings.serviceRoute;
    baseUrl.value = settings.baseUrl;
    pollBaseUrl.value = settings.pollBaseUrl;
    showAddresses();
    authHeader.value = settings.authHeader;
    maxInFlight.value = String(settings.maxInFlight);
    rememberHours.value = String(Math.round(settings.rememberMs / HOUR_MS));
    batchRuns.checked = settings.batchRuns;
    runsBeforeAsking.value = String(settings.runsBeforeAsking);
    dailyRunCap.value = String(settings.dailyRunCap);
  };
  const read = (): SpellSettings => ({
    apiKey: apiKey.value.trim(),
    baseUrl: baseUrl.value.trim(),
    pollBaseUrl: pollBaseUrl.value.trim(),
    serviceRoute: serviceRoute.value === "addinHost" ? "addinHost" : "direct",
    authHeader: authHeader.value === "x-api-key" ? "x-api-key" : "authorization",
    maxInFlight: Number(maxInFlight.value),
    rememberMs: Number(rememberHours.value) * HOUR_MS,
    batchRuns: batchRuns.checked === true,
    runsBeforeAsking: Number(runsBeforeAsking.value),
    dailyRunCap: Number(dailyRunCap.value),
  });
  const say = (text: string, tone: "info" | "good" | "bad" = "info") => {
    status.textContent = text;
    status.dataset.tone = tone;
  };
  const busy = async (button: HTMLElement, work: () => Promise<void>) => {
    button.setAttribute("disabled", "");
    for (const field of Object.values(fieldOf)) field?.removeAttribute("aria-invalid");
    try {
      await work();
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), "bad");
      // A refused setting points at its field, so the reason and the place to fix it meet.
      const field = error instanceof SettingsError ? fieldOf[error.setting] : undefined;
      field?.setAttribute("aria-invalid", "true");
      field?.focus();
    } finally {
      button.removeAttribute("disabled");
    }
  };

  showKey.addEventListener("click", () => {
    const shown = apiKey.getAttribute("type") === "text";
    apiKey.setAttribute("type", shown ? "password" : "text");
    showKey.setAttribute("aria-pressed", String(!shown));
    showKey.textContent = shown ? "Show" : "Hide";
  });
  root.querySelector("form")?.addEventListener("submit", (event) => event.preventDefault());
  save.addEventListener("click", () =>
    busy(save, async () => {
      const settings = read();
      // Through the add-in's host, addresses left empty stay as they were (not refused).
      const patch: Partial<SpellSettings> = { ...settings };
      if (settings.serviceRoute === "addinHost") {
        if (!settings.baseUrl) delete patch.baseUrl;
        if (!settings.pollBaseUrl) delete patch.pollBaseUrl;
      }
      fill(await deps.saveSettings(patch));
      say("Settings saved.", "good");
    })
  );
  test.addEventListener("click", () =>
    busy(test, async () => {
      const settings = read();
      // The same address rules as Save: an http:// host elsewhere is refused with its reason
      // here too, instead of a later "does not answer".
      if (settings.serviceRoute === "direct") {
        settings.baseUrl = checkServiceAddress("baseUrl", settings.baseUrl);
        settings.pollBaseUrl = checkServiceAddress("pollBaseUrl", settings.pollBaseUrl);
      }
      say("Testing the connection…");
      const check = await deps.testConnection(settings);
      say(check.message, check.ok ? "good" : "bad");
    })
  );
  clear.addEventListener("click", () =>
    busy(clear, async () => {
      await deps.clearRememberedResults();
      await deps.recalculate();
      showRememberedNote();
      say("Remembered results cleared; the workbook is recalculating.", "good");
    })
  );

  showRememberedNote();
  root.addEventListener("focusin", showRememberedNote);
  const settings = await deps.loadSettings();
  fill(settings);
  const called = serviceAddresses(settings);
  if (!called.baseUrl || !called.pollBaseUrl) {
    say("Enter the Spell Run service addresses and your API key, then Save.");
  }
}

/** A whole-number field of the form, with its label. */
function numberField(id: string, min: number, max: number, label: string): ValueElement {
  return element("fluent-number-field", { id, min, max, step: 1 }, label) as ValueElement;
}
