/**
 * Accessibility of the task pane: axe-core over each state the user meets (empty, plan, overwrite
 * prompt, header row prompt, running, finished, resumable, kept results, settings), with no
 * serious or critical violation; and the controls of a run reachable and usable from the
 * keyboard alone.
 */
import axe from "axe-core";
import { Subject } from "rxjs";
import type { BulkResumeToken, BulkSnapshot, RunState } from "../../src/index.js";
import { DEFAULT_SETTINGS } from "../../addin/settings/defaultSettings.js";
import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { saveBulkJob } from "../../taskpane/storedJob/jobStore.js";
import { saveKeptResults } from "../../taskpane/storedJob/keptResults.js";
import type { BulkJob } from "../../taskpane/storedJob/BulkJob.js";
import { openRowRecords } from "../../taskpane/storedJob/rowRecordStore.js";
import { mountTaskPane } from "../../taskpane/ui/mountTaskPane.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { waitFor, bulkViewDeps } from "./taskpaneTestKit.js";

const CONNECTED = { ok: true, reachable: true, keyAccepted: true, message: "Connected." };

/** A bulk source the spec drives: each `bulk` emits what the spec pushes. */
function drivenSource(): BulkSource & { snapshots: Subject<BulkSnapshot>; inputs: number } {
  const source = {
    snapshots: new Subject<BulkSnapshot>(),
    inputs: 0,
    bulk(_spellId: string, inputsList: Record<string, unknown>[]) {
      source.inputs = inputsList.length;
      return source.snapshots.asObservable();
    },
    resumeBulk() {
      return source.snapshots.asObservable();
    },
  };
  return source;
}

/** A snapshot of `total` runs whose first `finished` succeeded (output `echo`). */
function snapshot(total: number, finished: number): BulkSnapshot {
  const resume: BulkResumeToken = {
    spellId: "echo",
    groupIds: ["group-a11y"],
    chunkSizes: [total],
  };
  const runs = Array.from({ length: total }, (_, i) =>
    i < finished
      ? { state: "success" as RunState, outputs: { echo: `out ${i}` } }
      : { state: "inProgress" as RunState, outputs: {} }
  );
  return {
    groupId: "group-a11y",
    groupIds: resume.groupIds,
    runs,
    done: finished === total,
    total,
    counts: {
      pending: 0,
      inProgress: total - finished,
      success: finished,
      failure: 0,
      error: 0,
    },
    resume,
  };
}

/** The serious and critical violations axe-core finds in `root`, as readable lines. */
async function seriousViolations(root: HTMLElement): Promise<string[]> {
  const results = await axe.run(root, { resultTypes: ["violations"] });
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.html).join(" | ")}`
    );
}

describe("Task pane accessibility (axe-core)", () => {
  let uninstall: () => void = () => undefined;
  let root: HTMLElement;
  let stored: SpellSettings;

  beforeEach(() => {
    root = document.createElement("div");
    document.body.append(root);
    stored = { ...DEFAULT_SETTINGS };
  });
  afterEach(() => {
    root.remove();
    uninstall();
  });

  /** Mounts the whole pane (Run and Settings tabs) over `workbook` with a driven source. */
  async function mount(workbook: MockWorkbook, source: BulkSource): Promise<BulkRunController> {
    uninstall = workbook.install();
    const controller = new BulkRunController(source);
    await mountTaskPane(root, {
      bulk: bulkViewDeps(controller, { openRowRecords }),
      settings: {
        loadSettings: async () => stored,
        saveSettings: async (patch) => (stored = { ...stored, ...patch }),
        testConnection: async () => CONNECTED,
        clearRememberedResults: async () => undefined,
        recalculate: async () => undefined,
      },
    });
    return controller;
  }

  const byId = (id: string) => root.querySelector(`#${id}`) as HTMLElement;
  const text = (id: string) => byId(id)?.textContent ?? "";

  it("should have no serious or critical violation when empty, planned, running, finished, and in Settings", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["a"], ["b"], ["c"]] },
      selection: "Sheet1!A1:A4",
    });
    const source = drivenSource();
    const controller = await mount(workbook, source);
    expect(await seriousViolations(root))
      .withContext("empty")
      .toEqual([]);

    (byId("spell-id") as HTMLElement & { value: string }).value = "echo";
    byId("use-selection").click();
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");
    expect(await seriousViolations(root))
      .withContext("plan")
      .toEqual([]);

    byId("run").click();
    await waitFor(() => source.inputs === 3, 5_000, "the bulk");
    source.snapshots.next(snapshot(3, 1));
    await waitFor(() => controller.progress.finished === 1, 5_000, "a first result");
    expect(await seriousViolations(root))
      .withContext("running")
      .toEqual([]);

    source.snapshots.next(snapshot(3, 3));
    source.snapshots.complete();
    await waitFor(() => controller.progress.phase === "done", 5_000, "the end");
    expect(await seriousViolations(root))
      .withContext("finished")
      .toEqual([]);

    byId("tab-settings").click();
    await waitFor(() => byId("api-key") !== null, 5_000, "the settings");
    expect(await seriousViolations(root))
      .withContext("settings")
      .toEqual([]);
  });

  it("should have no serious or critical violation with the overwrite prompt and the header row prompt", async () => {
    const workbook = new MockWorkbook({
      sheets: {
        Sheet1: [
          ["text", "Notes"],
          ["a", "mine"],
          ["b", ""],
        ],
      },
      selection: "Sheet1!A1:A3",
    });
    await mount(workbook, drivenSource());
    byId("use-selection").click();
    await waitFor(() => !byId("placement-box").hidden, 5_000, "the overwrite prompt");
    expect(await seriousViolations(root))
      .withContext("overwrite prompt")
      .toEqual([]);

    workbook.select("Sheet1!A2:A3");
    byId("use-selection").click();
    await waitFor(() => !byId("header-above").hidden, 5_000, "the header row prompt");
    expect(await seriousViolations(root))
      .withContext("header row prompt")
      .toEqual([]);
  });

  it("should have no serious or critical violation with a resumable job and with kept results", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["a"], ["b"], ["c"]] },
      selection: "Sheet1!A1:A4",
    });
    uninstall = workbook.install();
    const job: BulkJob = {
      version: 1,
      id: "SpellRun_a11y",
      spellId: "echo",
      sheet: "Sheet1",
      headerRow: 0,
      rows: [1, 2, 3],
      inputColumns: [0],
      inputNames: ["text"],
      fingerprints: ["a", "b", "c"],
      statusColumn: 1,
      outputNames: ["echo"],
      token: { spellId: "echo", groupIds: ["group-a11y"], chunkSizes: [3] },
      handled: [0],
      startedAt: Date.now(),
    };
    await saveBulkJob(job);
    await saveBulkJob({ ...job, id: "SpellRun_kept", keptOnly: true, rows: [-1, 2, 3] });
    await saveKeptResults("SpellRun_kept", [
      { status: "success", outputs: { echo: "out a" }, inputs: ["a"] },
    ]);
    uninstall();
    await mount(workbook, drivenSource());
    await waitFor(() => !byId("resume").hidden, 5_000, "the stored jobs");
    expect(root.querySelector("[id^=resume-run]")).withContext("Resume").not.toBeNull();
    expect(root.querySelector("[id^=copy-kept-job]")).withContext("Copy kept").not.toBeNull();
    expect(await seriousViolations(root))
      .withContext("resumable and kept")
      .toEqual([]);
  });
});

describe("Task pane from the keyboard", () => {
  // A focused button answers Enter and Space with a click (the browser's own activation, which a
  // script cannot trigger with synthetic key events): each step focuses the control, checks it
  // is in the tab order and holds the focus, then clicks it.
  it("should give the focus to Use selection, Run and Cancel in turn, each in the tab order", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["text"], ["a"], ["b"]] },
      selection: "Sheet1!A1:A3",
    });
    const uninstall = workbook.install();
    const root = document.createElement("div");
    document.body.append(root);
    const source = drivenSource();
    const controller = new BulkRunController(source);
    try {
      await mountTaskPane(root, {
        bulk: bulkViewDeps(controller),
        settings: {
          loadSettings: async () => ({ ...DEFAULT_SETTINGS }),
          saveSettings: async () => ({ ...DEFAULT_SETTINGS }),
          testConnection: async () => CONNECTED,
          clearRememberedResults: async () => undefined,
          recalculate: async () => undefined,
        },
      });
      const byId = (id: string) => root.querySelector(`#${id}`) as HTMLElement;
      (byId("spell-id") as HTMLElement & { value: string }).value = "echo";
      const press = async (id: string) => {
        const control = byId(id);
        control.focus();
        expect(document.activeElement).withContext(id).toBe(control);
        // The button inside the element's shadow root is the one Tab reaches.
        const inner = control.shadowRoot?.querySelector<HTMLElement>("button") ?? control;
        expect(inner.tabIndex).withContext(`${id} in tab order`).toBeGreaterThanOrEqual(0);
        expect(inner.hasAttribute("disabled")).withContext(`${id} enabled`).toBeFalse();
        control.click();
      };
      await press("use-selection");
      await waitFor(() => !byId("run").hasAttribute("disabled"), 5_000, "Run enabled");
      await press("run");
      await waitFor(() => source.inputs === 2, 5_000, "the bulk");
      source.snapshots.next(snapshot(2, 0));
      await waitFor(() => !byId("cancel").hidden, 5_000, "Cancel shown");
      await press("cancel");
      source.snapshots.complete();
      await waitFor(() => controller.progress.phase === "cancelled", 5_000, "cancelled");
    } finally {
      root.remove();
      uninstall();
    }
  });
});
