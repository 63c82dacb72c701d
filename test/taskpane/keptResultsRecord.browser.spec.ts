/**
 * Kept results (finished runs whose rows were deleted mid-run) live in the job's per-row record,
 * not in the document settings, with the mock's Office limits on (5 MB per request and response,
 * 1 MB per settings save): thousands of kept outputs leave every settings save at a few hundred
 * bytes, survive a reload, and a crafted kept field is reported instead of read.
 */
import { Observable, Subject } from "rxjs";
import type { BulkResumeToken, BulkRunEntry, BulkSnapshot } from "../../src/index.js";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import {
  BULK_JOB_SETTING,
  BULK_KEPT_SETTING,
  saveSettings,
} from "../../taskpane/storedJob/jobSettings.js";
import {
  clearBulkJob,
  damagedBulkJobs,
  loadBulkJobs,
  saveBulkJob,
} from "../../taskpane/storedJob/jobStore.js";
import { loadKeptResults, saveKeptResults } from "../../taskpane/storedJob/keptResults.js";
import type { BulkJob } from "../../taskpane/storedJob/BulkJob.js";
import { moveKeptResults } from "../../taskpane/storedJob/moveKeptResults.js";
import {
  KEPT_RESULTS_FIELD,
  keptResultsRecordText,
} from "../../taskpane/storedJob/keptResultsRecord.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import {
  ROW_RECORD_SHEET,
  openRowRecords,
  rowRecord,
  saveRowRecord,
} from "../../taskpane/storedJob/rowRecordStore.js";
import { jobNotices } from "../../taskpane/ui/jobNotices.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { waitFor } from "./taskpaneTestKit.js";

const LIMIT = 5 * 1024 * 1024;
const DELETED = 2_000;
const STAYING = 10;

/** Run `i`'s output: about 1 KB that names its input. */
function summaryOf(text: string): string {
  return `summary of ${text}: ${"lorem ipsum ".repeat(85)}`;
}

/** The service, driven by the spec: each `finish(runs)` is one poll that finishes those runs. */
class DrivenSource implements BulkSource {
  private readonly live = new Subject<BulkSnapshot>();
  private runs: BulkRunEntry[] = [];
  private texts: string[] = [];
  private readonly token: BulkResumeToken = {
    spellId: "summarize",
    groupIds: ["g-1"],
    chunkSizes: [DELETED + STAYING],
  };

  bulk(_spellId: string, inputsList: Record<string, unknown>[]): Observable<BulkSnapshot> {
    this.texts = inputsList.map((inputs) => String(inputs.text));
    this.runs = inputsList.map(() => ({ state: "inProgress", outputs: {} }));
    return this.live.asObservable();
  }

  resumeBulk(): Observable<BulkSnapshot> {
    throw new Error("not used");
  }

  finish(runs: Iterable<number>): void {
    for (const run of runs) {
      this.runs[run] = { state: "success", outputs: { summary: summaryOf(this.texts[run]) } };
    }
    const success = this.runs.filter((run) => run.state === "success").length;
    const total = this.runs.length;
    this.live.next({
      groupId: "g-1",
      groupIds: ["g-1"],
      runs: [...this.runs],
      done: success === total,
      total,
      counts: { pending: 0, inProgress: total - success, success, failure: 0, error: 0 },
      resume: this.token,
    });
    if (success === total) this.live.complete();
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** A kept-only job of `runs` runs stored as the pane stores it (its rows in the record sheet). */
function keptJob(id: string, runs = 3): BulkJob {
  return {
    version: 1,
    id,
    spellId: "upper",
    sheet: "Sheet1",
    headerRow: 0,
    rows: range(0, runs).map((run) => (run === 0 ? -1 : run + 1)),
    inputColumns: [0],
    inputNames: ["text"],
    fingerprints: range(0, runs).map((run) => `f${run}`),
    statusColumn: 1,
    outputNames: ["upper"],
    handled: range(0, runs),
    keptOnly: true,
    startedAt: 1,
  };
}

function notices() {
  return jobNotices({
    loadBulkJobs,
    clearBulkJob,
    damagedBulkJobs,
    resume: () => Promise.reject(new Error("not offered")),
    report: fail,
  });
}

describe("Kept results in the per-row record, not the document settings", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  function install(rows: MockCellValue[][]): void {
    workbook = new MockWorkbook({
      sheets: { Sheet1: rows },
      selection: `Sheet1!A1:A${rows.length}`,
    });
    uninstall = workbook.install();
  }

  it("should keep all 2,000 results of rows deleted mid-run (1 KB each) with no settings save over 2 KB, and offer them after a reload", async () => {
    const texts = range(1, DELETED + STAYING + 1).map((i) => `r${i}`);
    install([["text"], ...texts.map((text) => [text])]);
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: true,
    });
    const source = new DrivenSource();
    const controller = new BulkRunController(source);
    const done = controller.start(selection, plan, "summarize");
    await waitFor(() => controller.progress.phase === "running", 5_000, "the start");
    source.finish(range(DELETED, DELETED + STAYING));
    await waitFor(() => controller.progress.counts.success === STAYING, 5_000, "the first poll");

    workbook.deleteRows("Sheet1", 1, DELETED); // r1…r2000, mid-run
    for (let from = 0; from < DELETED; from += 500) {
      source.finish(range(from, from + 500));
      await waitFor(
        () => controller.progress.counts.success === STAYING + from + 500,
        10_000,
        `the poll up to run ${from + 500}`
      );
    }
    const progress = await done;

    expect(progress.phase).toBe("done");
    expect(progress.kept).toBe(DELETED);
    expect(workbook.values("Sheet1", `A1:A${STAYING + 2}`).flat()).toEqual([
      "text",
      ...texts.slice(DELETED),
      "",
    ]);
    const lines = controller.keptResults().split("\n");
    expect(lines.length).toBe(DELETED + 1);
    expect(lines[1]).toBe(`r1\tsuccess\t${summaryOf("r1")}`);
    expect(lines[DELETED]).toBe(`r${DELETED}\tsuccess\t${summaryOf(`r${DELETED}`)}`);
    // About 2 MB of outputs, none of it in the settings.
    const [stored] = loadBulkJobs();
    expect(rowRecord(stored.id!)?.[KEPT_RESULTS_FIELD].length).toBeGreaterThan(DELETED * 1_000);
    expect(workbook.stats.failedSettingsSaves).toBe(0);
    expect(workbook.stats.largestSettingsBytes).toBeLessThan(2 * 1024);
    expect(JSON.stringify(workbook.savedSettings)).not.toContain("lorem");
    expect(workbook.stats.maxRequestBytes).toBeLessThanOrEqual(LIMIT);

    // Reopened: the record sheet comes with the workbook, the pane offers the kept results.
    workbook.reload();
    await openRowRecords();
    const [job] = loadBulkJobs();
    expect(job.keptOnly).toBeTrue();
    const kept = loadKeptResults(job.id);
    expect(kept.length).toBe(DELETED);
    expect(kept[0]).toEqual(
      jasmine.objectContaining({
        status: "success",
        outputs: { summary: summaryOf("r1") },
        inputs: ["r1"],
      })
    );
    expect(workbook.stats.maxResponseBytes).toBeLessThanOrEqual(LIMIT);

    const copied = spyOn(navigator.clipboard, "writeText").and.resolveTo();
    const shown = notices();
    shown.offer();
    expect(shown.element.textContent).toContain(
      `finished, but ${DELETED} results could not be placed`
    );
    shown.element.querySelector<HTMLElement>("#copy-kept-job")!.click();
    await waitFor(() => copied.calls.count() === 1, 5_000, "the copy");
    const text = copied.calls.mostRecent().args[0];
    expect(text.split("\n").length).toBe(DELETED + 1);
    expect(text).toContain(`r${DELETED}\tsuccess\t${summaryOf(`r${DELETED}`)}`);

    // Forget: the job and its record (kept results included) are gone.
    shown.element.querySelector<HTMLElement>("#forget-run")!.click();
    await waitFor(() => shown.element.hidden, 5_000, "the job forgotten");
    expect(loadBulkJobs()).toEqual([]);
    expect(rowRecord(job.id!)).toBeUndefined();
    await openRowRecords();
    expect(rowRecord(job.id!)).toBeUndefined();
  }, 120_000);

  it("should read the kept results a previous version left in the settings, and move them to the record at the next save", async () => {
    install([["text"], ["b"], ["c"]]);
    const job = keptJob("SpellRun_old");
    await saveBulkJob(job);
    // As the previous version stored them: the whole list in the setting, an output as it came.
    const settings = Office.context.document.settings;
    settings.set(`${BULK_KEPT_SETTING}.SpellRun_old`, [
      { status: "success", outputs: { upper: "A", tags: ["x"] }, inputs: ["a"] },
    ]);
    await saveSettings();
    workbook.reload();
    await openRowRecords();

    const kept = loadKeptResults("SpellRun_old");
    expect(kept).toEqual([
      { status: "success", outputs: { upper: "A", tags: '["x"]' }, inputs: ["a"] },
    ]);
    const shown = notices();
    shown.offer();
    expect(shown.element.textContent).toContain("finished, but 1 result could not be placed");

    await saveKeptResults("SpellRun_old", [
      ...kept,
      { status: "success", outputs: { upper: "B" } },
    ]);
    expect(settings.get(`${BULK_KEPT_SETTING}.SpellRun_old`)).toBeNull();
    expect(Object.keys(workbook.savedSettings)).not.toContain(`${BULK_KEPT_SETTING}.SpellRun_old`);
    workbook.reload();
    await openRowRecords();
    expect(loadKeptResults("SpellRun_old").map((result) => result.outputs?.upper)).toEqual([
      "A",
      "B",
    ]);
  });

  it("should move a previous version's kept results out of the settings when the pane opens, and leave an unreadable setting for Forget", async () => {
    install([["text"], ["b"], ["c"]]);
    await saveBulkJob(keptJob("SpellRun_old"));
    await saveBulkJob(keptJob("SpellRun_odd"));
    const settings = Office.context.document.settings;
    const old = [{ status: "success", outputs: { upper: "A" }, inputs: ["a"] }];
    settings.set(`${BULK_KEPT_SETTING}.SpellRun_old`, old);
    settings.set(`${BULK_KEPT_SETTING}.SpellRun_odd`, [{ status: 7 }]);
    await saveSettings();
    workbook.reload();
    await openRowRecords();

    expect(await moveKeptResults()).toBe(1);
    expect(Object.keys(workbook.savedSettings)).not.toContain(`${BULK_KEPT_SETTING}.SpellRun_old`);
    expect(rowRecord("SpellRun_old")?.[KEPT_RESULTS_FIELD]).toBe(keptResultsRecordText(old));
    expect(workbook.savedSettings[`${BULK_KEPT_SETTING}.SpellRun_odd`]).toEqual([{ status: 7 }]);
    expect(loadKeptResults("SpellRun_odd")).toEqual([]);

    workbook.reload();
    await openRowRecords();
    expect(loadKeptResults("SpellRun_old")).toEqual(old);
    expect(await moveKeptResults()).toBe(0); // nothing left to move

    await clearBulkJob("SpellRun_odd");
    expect(
      Object.keys(workbook.savedSettings).filter((key) => key.includes("SpellRun_odd"))
    ).toEqual([]);
  });

  it("should report a crafted oversize kept field within a second, read none of it, and forget it on Forget", async () => {
    install([["text"], ["b"], ["c"]]);
    await saveBulkJob(keptJob("SpellRun_bomb"));
    // 4 Mi characters for a job of 3 runs: more than its runs can have kept.
    await saveRowRecord("SpellRun_bomb", { [KEPT_RESULTS_FIELD]: "x".repeat(4 * 1_048_576) });
    workbook.reload();
    await openRowRecords();

    const started = performance.now();
    expect(damagedBulkJobs()).toEqual([
      {
        id: "SpellRun_bomb",
        problem: jasmine.stringMatching(/kept results take 4194304 characters/),
      },
    ]);
    expect(loadBulkJobs()).toEqual([]);
    expect(loadKeptResults("SpellRun_bomb")).toEqual([]);
    const shown = notices();
    shown.offer();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(shown.element.textContent).toContain("cannot be used: its kept results take");

    shown.element.querySelector<HTMLElement>("#forget-damaged-1")!.click();
    await waitFor(() => shown.element.hidden, 5_000, "the crafted job forgotten");
    expect(damagedBulkJobs()).toEqual([]);
    expect(Office.context.document.settings.get(`${BULK_JOB_SETTING}.SpellRun_bomb`)).toBeNull();
    await openRowRecords();
    expect(rowRecord("SpellRun_bomb")).toBeUndefined();
    expect(workbook.usedBlock(ROW_RECORD_SHEET)).toBeUndefined();
  });
});
