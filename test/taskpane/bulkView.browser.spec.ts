import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { loadBulkJob, loadBulkJobs, saveBulkJob } from "../../taskpane/storedJob/jobStore.js";
import type { BulkJob } from "../../taskpane/storedJob/BulkJob.js";
import { mountBulkView } from "../../taskpane/ui/bulkView.js";
import type { BulkViewDeps } from "../../taskpane/ui/bulkView.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, workbookWith, bulkViewDeps } from "./taskpaneTestKit.js";

type ValueElement = HTMLElement & { value: string };

/** An unfinished bulk of rows 2, 4 and 5 of Sheet1, as the pane stores it, with one group. */
function storedJob(groupId: string): BulkJob {
  return {
    version: 1,
    spellId: "echo",
    sheet: "Sheet1",
    headerRow: 0,
    rows: [1, 3, 4],
    inputColumns: [0],
    inputNames: ["text"],
    fingerprints: ["a", "b", "c"],
    statusColumn: 1,
    outputNames: [],
    token: { spellId: "echo", groupIds: [groupId], chunkSizes: [3] },
    handled: [],
    startedAt: Date.now(),
  };
}

describe("Bulk view", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;
  let root: HTMLElement;
  let deps: BulkViewDeps;

  beforeEach(async () => {
    await resetEmulator();
    registerFluent();
    root = document.createElement("div");
    document.body.append(root);
    workbook = workbookWith([["text"], ["one"], [""], ["three"], ["four"]]);
    uninstall = workbook.install();
    deps = bulkViewDeps(new BulkRunController(emulatorClient()));
  });
  afterEach(() => {
    root.remove();
    uninstall();
  });

  const click = (id: string) => (root.querySelector(`#${id}`) as HTMLElement).click();
  const text = (id: string) => root.querySelector(`#${id}`)?.textContent ?? "";

  it("should show how many runs will start, run them, and not offer the same rows again", async () => {
    await mountBulkView(root, deps);
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");
    expect(text("plan-summary")).toContain("3 runs at most will start (skipped: 1 blank)");
    expect(text("selection-summary")).toContain("Sheet1!A1:A5");
    const run = root.querySelector("#run") as HTMLElement;
    expect(run.hasAttribute("disabled")).toBeFalse();
    expect(run.textContent).toBe("Run 3 rows");

    click("run");
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the end of the bulk");

    expect(text("progress-text")).toBe("Finished: 3 / 3 done. Results are in Sheet1, columns B–C.");
    expect(root.querySelector("#progress-text")?.getAttribute("aria-live")).toBe("polite");
    expect(root.querySelector("#bar")?.getAttribute("aria-valuetext")).toBe("3 of 3 runs finished");
    expect(workbook.values("Sheet1", "B2:C5")).toEqual([
      ["success", "one"],
      ["", ""],
      ["success", "three"],
      ["success", "four"],
    ]);
    // The plan was used up: Run stays off until the selection is read again.
    expect(run.hasAttribute("disabled")).toBeTrue();
    expect((root.querySelector("#cancel") as HTMLElement).hidden).toBeTrue();
    expect((await emulatorStats()).bulkRunsCreated).toBe(3);
  });

  it("should warn before Run when the selection has no header row (its first row looks like data)", async () => {
    uninstall();
    // The user selected the data only: the first row is a record, not names.
    workbook = workbookWith([
      ["hello", 12],
      ["world", 13],
    ]);
    uninstall = workbook.install();
    await mountBulkView(root, deps);
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");
    expect(text("plan-summary")).toMatch(/first row .*(names|header)/i);
    expect((root.querySelector("#plan-summary") as HTMLElement).dataset.tone).toBe("warn");
    expect((await emulatorStats()).bulkRunsCreated).toBe(0);
  });

  it("should refuse input names that differ only in case, and start nothing", async () => {
    uninstall();
    workbook = workbookWith([
      ["Text", "text"],
      ["a", "b"],
    ]);
    uninstall = workbook.install();
    await mountBulkView(root, deps);
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /case/.test(text("plan-summary")), 5_000, "the refusal");
    expect(text("plan-summary")).toContain("Text");
    expect((root.querySelector("#run") as HTMLElement).hasAttribute("disabled")).toBeTrue();
    click("run");
    expect((await emulatorStats()).requests.bulkStart ?? 0).toBe(0);
    expect(workbook.values("Sheet1", "C1:C2")).toEqual([[""], [""]]);
  });

  it("should let a column be renamed or left out", async () => {
    uninstall();
    workbook = workbookWith([
      ["body", "notes"],
      ["hello", "private"],
    ]);
    uninstall = workbook.install();
    await mountBulkView(root, deps);
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");
    const [, notesRow] = Array.from(root.querySelectorAll(".mapping-row"));
    const [bodyName] = Array.from(
      root.querySelectorAll<ValueElement>(".mapping-row fluent-text-field")
    );
    bodyName.value = "text";
    bodyName.dispatchEvent(new Event("input"));
    const notesUse = notesRow.querySelector("fluent-checkbox") as HTMLElement;
    notesUse.click(); // untick: leave the column out
    await waitFor(
      () => (notesRow.querySelector("fluent-text-field") as HTMLElement).hasAttribute("disabled"),
      2_000,
      "untick"
    );

    click("run");
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the end of the bulk");
    // echo returns its inputs: only the renamed column was sent.
    expect(workbook.values("Sheet1", "C1:E2")).toEqual([
      ["Spell status", "text", ""],
      ["success", "hello", ""],
    ]);
  });

  it("should offer to resume a stored bulk, and forget it on request", async () => {
    await saveBulkJob(storedJob("gone"));
    await mountBulkView(root, deps);
    const notice = root.querySelector("#resume") as HTMLElement;
    expect(notice.hidden).toBeFalse();
    expect(notice.textContent).toContain("A bulk of 3 rows");
    expect(root.querySelector("#resume-run")).not.toBeNull();
    click("forget-run");
    await waitFor(() => notice.hidden, 2_000, "forget");
    expect(loadBulkJob()).toBeUndefined();
  });

  it("should not let a new Run discard an unfinished stored bulk, and offer to resume it instead", async () => {
    const stored = storedJob("paid-group");
    await mountBulkView(root, deps);
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");
    // Stored after the pane opened (e.g. a failed bulk of another range).
    await saveBulkJob(stored);
    (root.querySelector("#resume") as HTMLElement).hidden = true;

    click("run");
    await waitFor(() => /unfinished bulk/.test(text("progress-text")), 2_000, "the refusal");

    expect(text("progress-text")).toContain("Resume or Forget it before starting another");
    expect((root.querySelector("#resume") as HTMLElement).hidden).toBeFalse();
    expect(loadBulkJob()?.token?.groupIds).toEqual(["paid-group"]);
    expect((await emulatorStats()).requests.bulkStart).toBe(0);
  });

  it("should keep a job of another block when a new Run starts, and still offer to resume it", async () => {
    // An unfinished bulk over U1:U4 (another block of the same sheet).
    const other: BulkJob = {
      ...storedJob("other-group"),
      id: "other",
      rows: [1, 2, 3],
      inputColumns: [20],
      statusColumn: 21,
    };
    await saveBulkJob(other);
    await mountBulkView(root, deps);
    expect(text("resume")).toContain("did not finish here");
    (root.querySelector("#spell-id") as ValueElement).value = "echo";
    click("use-selection");
    await waitFor(() => /will start/.test(text("plan-summary")), 5_000, "the plan");

    click("run");
    await waitFor(() => /^Finished/.test(text("progress-text")), 3_000, "the end of the bulk");

    expect(workbook.values("Sheet1", "B2")).toEqual([["success"]]);
    expect(loadBulkJobs().map((job) => job.id)).toEqual(["other"]);
    expect((root.querySelector("#resume") as HTMLElement).hidden).toBeFalse();
    expect(root.querySelector("#resume-run")).not.toBeNull();
  });

  it("should say in plain words when the service no longer knows a stored bulk, and let it be dismissed", async () => {
    await saveBulkJob({ ...storedJob("expired-group"), id: "old" });
    // The core waits `bulkVisibilityGraceMs` (30 s) before taking a 404 as final, also on resume.
    const poll = { initialDelayMs: 20, intervalMs: 50, growth: 1, maxIntervalMs: 50 };
    deps.controller = new BulkRunController(
      emulatorClient({ poll: { ...poll, bulkVisibilityGraceMs: 0 } })
    );
    await mountBulkView(root, deps);
    click("resume-run");
    await waitFor(() => /^Stopped/.test(text("progress-text")), 3_000, "the failed resume");

    expect(text("progress-text")).toContain(
      "The service no longer knows this bulk (its runs expired or were deleted), so the results of its 3 unfinished rows cannot be collected."
    );
    expect(text("progress-text")).not.toMatch(/HTTP|404/);
    expect(loadBulkJobs()[0]?.expired).toBeTrue();
    expect(text("resume")).toContain("the service no longer knows its runs");
    expect(root.querySelector("#resume-run")).toBeNull();
    click("forget-run");
    await waitFor(() => (root.querySelector("#resume") as HTMLElement).hidden, 2_000, "forget");
    expect(loadBulkJobs()).toEqual([]);
  });

  it("should run the unfinished rows of an expired bulk again on Retry failed rows, with the count shown", async () => {
    await saveBulkJob({ ...storedJob("expired-group"), id: "old" });
    const poll = { initialDelayMs: 20, intervalMs: 50, growth: 1, maxIntervalMs: 50 };
    deps.controller = new BulkRunController(
      emulatorClient({ poll: { ...poll, bulkVisibilityGraceMs: 0 } })
    );
    await mountBulkView(root, deps);
    click("resume-run");
    await waitFor(() => /^Stopped/.test(text("progress-text")), 10_000, "the failed resume");
    const retry = root.querySelector("#retry") as HTMLElement;
    expect(retry.hidden).toBeFalse();
    expect(retry.textContent).toBe("Retry failed rows (3)");

    click("retry");
    await waitFor(() => /^Finished/.test(text("progress-text")), 10_000, "the re-run");

    expect(workbook.values("Sheet1", "B1:C5")).toEqual([
      ["Spell status", "text"],
      ["success", "one"],
      ["", ""],
      ["success", "three"],
      ["success", "four"],
    ]);
    expect((await emulatorStats()).bulkRunsCreated).toBe(3);
    expect(loadBulkJobs()).toEqual([]);
    // The job the "can no longer be collected" notice spoke of is finished: the notice is gone.
    expect((root.querySelector("#resume") as HTMLElement).hidden).toBeTrue();
    expect(text("resume")).not.toContain("can no longer be collected");
  });
});
