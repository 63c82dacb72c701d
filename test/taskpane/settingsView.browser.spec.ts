import { DEFAULT_SETTINGS } from "../../addin/settings/defaultSettings.js";
import { loadSettings } from "../../addin/settings/loadSettings.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { freezeFormulas } from "../../taskpane/sheet/freezeFormulas.js";
import { recalculateWorkbook } from "../../taskpane/sheet/recalculateWorkbook.js";
import { testConnection } from "../../taskpane/ui/testConnection.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { mountSettingsView } from "../../taskpane/ui/settingsView.js";
import { emulatorForBrowser, emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { waitFor } from "./taskpaneTestKit.js";

type ValueElement = HTMLElement & { value: string };

describe("Task pane settings", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;
  let saved: SpellSettings;
  let root: HTMLElement;

  beforeEach(async () => {
    await resetEmulator();
    saved = await loadSettings();
    workbook = new MockWorkbook();
    uninstall = workbook.install();
    root = document.createElement("div");
    document.body.append(root);
    registerFluent();
  });
  afterEach(async () => {
    root.remove();
    uninstall();
    await saveSettings(saved);
  });

  it("should round-trip every setting through the form, outside the workbook", async () => {
    const clear = jasmine.createSpy("clearRememberedResults").and.resolveTo();
    await mountSettingsView(root, {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults: clear,
      recalculate: recalculateWorkbook,
    });
    const field = (id: string) => root.querySelector(`#${id}`) as ValueElement;
    field("api-key").value = "  sk-round-trip-secret ";
    field("base-url").value = "http://127.0.0.1:4001";
    field("poll-base-url").value = "http://127.0.0.1:4002";
    field("auth-header").value = "x-api-key";
    // Not the default of this build ("direct"), so reading it back proves it was saved.
    field("service-route").value = "addinHost";
    field("max-in-flight").value = "3";
    field("remember-hours").value = "2";
    field("runs-before-asking").value = "40";
    field("daily-run-cap").value = "400";
    // The box shows the stored value; saving the other one proves it is read back.
    const batch = field("batch-runs") as unknown as { checked: boolean };
    expect(batch.checked).toBe((await loadSettings()).batchRuns);
    const batchRuns = !batch.checked;
    batch.checked = batchRuns;
    (root.querySelector("#save-settings") as HTMLElement).click();
    await waitFor(
      () => root.querySelector("#settings-status")?.textContent === "Settings saved.",
      5_000,
      "the save"
    );

    expect(await loadSettings()).toEqual({
      apiKey: "sk-round-trip-secret",
      baseUrl: "http://127.0.0.1:4001",
      pollBaseUrl: "http://127.0.0.1:4002",
      serviceRoute: "addinHost",
      authHeader: "x-api-key",
      maxInFlight: 3,
      rememberMs: 2 * 3_600_000,
      batchRuns,
      runsBeforeAsking: 40,
      dailyRunCap: 400,
    });
    // Stored in the add-in's storage; the document's settings and cells never see it.
    expect(JSON.stringify(workbook.settings)).not.toContain("sk-round-trip-secret");
    expect(JSON.stringify(workbook.savedSettings)).not.toContain("sk-round-trip-secret");
    expect(workbook.allCells()).toEqual([]);

    // Shown masked, revealed on request.
    expect(field("api-key").getAttribute("type")).toBe("password");
    (root.querySelector("#show-key") as HTMLElement).click();
    expect(field("api-key").getAttribute("type")).toBe("text");
    expect(root.querySelector("#show-key")?.getAttribute("aria-pressed")).toBe("true");

    // Clear remembered results, then a full recalculation.
    (root.querySelector("#clear-results") as HTMLElement).click();
    await waitFor(() => workbook.calculations.length > 0, 5_000, "the recalculation");
    expect(clear).toHaveBeenCalledTimes(1);
    expect(workbook.calculations).toEqual(["Full"]);
  });

  it("should report a bad key, a good key and an unreachable service plainly", async () => {
    const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
    const base = { ...DEFAULT_SETTINGS, baseUrl, pollBaseUrl };

    const bad = await testConnection({ ...base, apiKey: "not-the-key" });
    expect(bad).toEqual(
      jasmine.objectContaining({ ok: false, reachable: true, keyAccepted: false })
    );
    expect(bad.message).toContain("refused the API key");
    expect(bad.message).not.toContain("not-the-key");

    const good = await testConnection({ ...base, apiKey });
    expect(good).toEqual(
      jasmine.objectContaining({ ok: true, reachable: true, keyAccepted: true })
    );
    const viaHeader = await testConnection({ ...base, apiKey, authHeader: "x-api-key" });
    expect(viaHeader.ok).toBeTrue();

    const unreachable = await testConnection({ ...base, apiKey, baseUrl: "http://127.0.0.1:9" });
    expect(unreachable).toEqual(jasmine.objectContaining({ ok: false, reachable: false }));
    expect(unreachable.message).toContain("does not answer");

    // Nothing was started by testing.
    const stats = await emulatorStats();
    expect(stats.runsCreated + stats.bulkRunsCreated).toBe(0);
  });

  it("should refuse an http:// address on another computer with the reason, on Save and on Test", async () => {
    const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
    await saveSettings({ apiKey, baseUrl, pollBaseUrl });
    await mountSettingsView(root, {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults: async () => undefined,
      recalculate: recalculateWorkbook,
    });
    const field = (id: string) => root.querySelector(`#${id}`) as ValueElement;
    const status = root.querySelector("#settings-status") as HTMLElement;
    field("base-url").value = "http://spell.example.com";

    (root.querySelector("#save-settings") as HTMLElement).click();
    await waitFor(() => /must use https/.test(status.textContent ?? ""), 5_000, "the refusal");
    expect(status.textContent).toContain("The Base URL must use https://");
    expect(status.textContent).toContain("https page");
    expect(status.dataset.tone).toBe("bad");
    expect(field("base-url").getAttribute("aria-invalid")).toBe("true");
    expect((await loadSettings()).baseUrl).toBe(baseUrl);

    status.textContent = "";
    // The emulator is the poll host: a test that went ahead would probe it with getRun. Counted
    // as a difference, and getRun only, so that a late request of an earlier spec (a background
    // cancelBulk or poll) cannot make this fail.
    const probesBefore = (await emulatorStats()).requests.getRun ?? 0;
    (root.querySelector("#test-connection") as HTMLElement).click();
    await waitFor(() => /must use https/.test(status.textContent ?? ""), 5_000, "the refusal");
    expect((await emulatorStats()).requests.getRun ?? 0).toBe(probesBefore);

    // This computer over http:// is accepted (the local emulator).
    field("base-url").value = baseUrl;
    (root.querySelector("#save-settings") as HTMLElement).click();
    await waitFor(() => status.textContent === "Settings saved.", 5_000, "the save");
    expect(field("base-url").hasAttribute("aria-invalid")).toBeFalse();
  });

  it("should ask for the service addresses when they are not set", async () => {
    await mountSettingsView(root, {
      loadSettings: async () => ({ ...(await loadSettings()), baseUrl: "", pollBaseUrl: "" }),
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults: async () => undefined,
      recalculate: recalculateWorkbook,
    });
    const status = root.querySelector("#settings-status") as HTMLElement;
    expect(status.textContent).toContain("Enter the Spell Run service addresses");
    (root.querySelector("#save-settings") as HTMLElement).click();
    await waitFor(() => /Enter the Base URL/.test(status.textContent ?? ""), 5_000, "the refusal");
    expect(root.querySelector("#base-url")?.getAttribute("aria-invalid")).toBe("true");
  });

  it("should note what the remembered results' limits cost above Clear, and drop the note once cleared", async () => {
    let note: string | undefined =
      "Remembered results are at their limit. 1,200 results no longer fit.";
    await mountSettingsView(root, {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults: async () => {
        note = undefined;
      },
      rememberedNote: () => note,
      recalculate: async () => undefined,
    });
    const shown = root.querySelector("#remembered-note") as HTMLElement;
    expect(shown.hidden).toBeFalse();
    expect(shown.textContent).toBe(note as string);
    (root.querySelector("#clear-results") as HTMLElement).click();
    await waitFor(() => shown.hidden, 5_000, "the note gone after the clear");
    expect(shown.textContent).toBe("");
  });

  it("should show the test result in the form", async () => {
    const { baseUrl, pollBaseUrl } = emulatorForBrowser();
    await saveSettings({ apiKey: "wrong-key", baseUrl, pollBaseUrl });
    await mountSettingsView(root, {
      loadSettings,
      saveSettings,
      testConnection: (settings) => testConnection(settings),
      clearRememberedResults: async () => undefined,
      recalculate: recalculateWorkbook,
    });
    (root.querySelector("#test-connection") as HTMLElement).click();
    const status = root.querySelector("#settings-status") as HTMLElement;
    await waitFor(() => /refused/.test(status.textContent ?? ""), 5_000, "the test result");
    expect(status.dataset.tone).toBe("bad");
    expect(status.getAttribute("aria-live")).toBe("polite");
  });
});

describe("freezeFormulas", () => {
  it("should replace SPELL formulas in the selection by their values, leaving other cells alone", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["a", 1, 2]] },
      selection: "Sheet1!A1:D4",
    });
    workbook.setFormula("Sheet1", "B1", '=SPELL.RUN("summarize", A1)', "short");
    workbook.setFormula("Sheet1", "C1", "=SUM(1,1)", 2);
    workbook.setFormula("Sheet1", "A2", '=spell.output("x")', "=looks like a formula");
    workbook.setFormula("Sheet1", "B2", '=SPELL.RUN("sentiment", A1)', 0.5);
    // A spilled result: the anchor C3 spills into C3:D4.
    workbook.setSpill("Sheet1", "C3", '=SPELL.BULK("echo", A1:A2)', [
      ["x", 1],
      ["=y", 2],
    ]);
    const uninstall = workbook.install();
    try {
      expect(await freezeFormulas()).toEqual({ frozen: 4 });
    } finally {
      uninstall();
    }
    expect(workbook.cell("Sheet1", "B1")).toEqual({ value: "short", numberFormat: "@" });
    expect(workbook.cell("Sheet1", "A2")).toEqual({
      value: "=looks like a formula",
      numberFormat: "@",
    });
    expect(workbook.cell("Sheet1", "B2")).toEqual({ value: 0.5, numberFormat: "General" });
    expect(workbook.cell("Sheet1", "C1").formula).toBe("=SUM(1,1)");
    expect(workbook.values("Sheet1", "C3:D4")).toEqual([
      ["x", 1],
      ["=y", 2],
    ]);
    expect(workbook.cell("Sheet1", "C3").formula).toBeUndefined();
    expect(workbook.cell("Sheet1", "C4")).toEqual({ value: "=y", numberFormat: "@" });
    expect(workbook.stats.writeSyncs).toBe(1);
  });
});
