import { Observable, Subject, of } from "rxjs";
import type { BulkResumeToken, BulkRunEntry, BulkSnapshot } from "../../src/index.js";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkProgress, BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { STATUS_HEADER } from "../../taskpane/sheet/outputLayout.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { clearBulkJob, loadBulkJob, loadBulkJobs } from "../../taskpane/storedJob/jobStore.js";
import { loadKeptResults } from "../../taskpane/storedJob/keptResults.js";
import { jobNotices } from "../../taskpane/ui/jobNotices.js";
import { KeptRowsOccupiedError } from "../../taskpane/bulk/writeKeptBelow.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { waitFor } from "./taskpaneTestKit.js";

/**
 * Structural edits while a bulk runs (and while the workbook is closed): Excel moves cells, and
 * the pane must follow its block (a workbook name) and find records by their inputs. The spell
 * answers `upper` = the row's `text` in capitals, so every output names the row it belongs to.
 */
const TEXTS = ["a", "b", "c", "d", "e", "f"];
const TOKEN: BulkResumeToken = { spellId: "upper", groupIds: ["g-1"], chunkSizes: [6] };

function snapshot(finished: readonly number[], texts: readonly string[] = TEXTS): BulkSnapshot {
  const runs: BulkRunEntry[] = texts.map((text, run) =>
    finished.includes(run)
      ? { state: "success", outputs: { upper: text.toUpperCase() } }
      : { state: "inProgress", outputs: {} }
  );
  const success = finished.length;
  return {
    groupId: "g-1",
    groupIds: ["g-1"],
    runs,
    done: success === runs.length,
    total: runs.length,
    counts: { pending: 0, inProgress: runs.length - success, success, failure: 0, error: 0 },
    resume: TOKEN,
  };
}

/** A service driven by the spec: `live` is what the pane polls; `resumeBulk` answers `resumed`. */
class ScriptedSource implements BulkSource {
  readonly live = new Subject<BulkSnapshot>();
  constructor(
    private readonly resumed: Observable<BulkSnapshot> = of(snapshot([0, 1, 2, 3, 4, 5]))
  ) {}
  bulk(): Observable<BulkSnapshot> {
    return this.live.asObservable();
  }
  resumeBulk(): Observable<BulkSnapshot> {
    return this.resumed;
  }
}

describe("Task pane results follow their rows through structural edits", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  /** Sheet1: `text` in A1:A7 (or `text`, `lang` in A1:B7), selected. */
  function install(withLang = false): void {
    const rows: MockCellValue[][] = [withLang ? ["text", "lang"] : ["text"]];
    for (const text of TEXTS) rows.push(withLang ? [text, "en"] : [text]);
    workbook = new MockWorkbook({
      sheets: { Sheet1: rows },
      selection: withLang ? "Sheet1!A1:B7" : "Sheet1!A1:A7",
    });
    uninstall = workbook.install();
  }

  /** Starts the bulk; resolves once runs 0 and 1 are written (the edit then happens mid-run). */
  async function startAndFinishTwo(
    source: ScriptedSource
  ): Promise<{ controller: BulkRunController; done: Promise<BulkProgress> }> {
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    const controller = new BulkRunController(source);
    const done = controller.start(selection, plan, "upper");
    await waitFor(() => controller.progress.phase === "running", 5_000, "the start");
    source.live.next(snapshot([0, 1]));
    await waitFor(() => controller.progress.counts.success === 2, 5_000, "two results");
    return { controller, done };
  }

  async function finishAll(source: ScriptedSource, done: Promise<BulkProgress>) {
    source.live.next(snapshot([0, 1, 2, 3, 4, 5]));
    source.live.complete();
    return done;
  }

  /** Every row of the sheet whose `text` column holds a letter has its own capital beside it. */
  function expectEachOutputInItsRow(
    textColumn: string,
    statusColumn: string,
    outputColumn: string
  ) {
    const last = workbook.lastRow("Sheet1") + 1;
    const texts = workbook.values("Sheet1", `${textColumn}1:${textColumn}${last}`);
    const status = workbook.values("Sheet1", `${statusColumn}1:${statusColumn}${last}`);
    const outputs = workbook.values("Sheet1", `${outputColumn}1:${outputColumn}${last}`);
    let checked = 0;
    texts.forEach(([text], row) => {
      if (TEXTS.includes(String(text))) {
        checked++;
        expect([status[row][0], outputs[row][0]])
          .withContext(`sheet row ${row + 1} (${String(text)})`)
          .toEqual(["success", String(text).toUpperCase()]);
      } else if (text !== "text") {
        expect([status[row][0], outputs[row][0]])
          .withContext(`sheet row ${row + 1} is not a record`)
          .toEqual(["", ""]);
      }
    });
    return checked;
  }

  it("should put each result in its own row after the user sorts the block mid-run", async () => {
    install();
    const source = new ScriptedSource();
    const { controller, done } = await startAndFinishTwo(source);
    // Descending by text: f, e, d, c, b, a (the written status and outputs move with their rows).
    workbook.sortRows("Sheet1", 1, 6, (cells) => -String(cells[0]).charCodeAt(0));
    // One write finds the rows again; the next ones write runs whose rows are in reverse order.
    source.live.next(snapshot([0, 1, 2]));
    await waitFor(() => controller.progress.counts.success === 3, 5_000, "three results");

    expect((await finishAll(source, done)).phase).toBe("done");
    expect(workbook.values("Sheet1", "A2:A7").flat()).toEqual(["f", "e", "d", "c", "b", "a"]);
    expect(expectEachOutputInItsRow("A", "B", "C")).toBe(6);
    expect(workbook.values("Sheet1", "B1:C1")).toEqual([[STATUS_HEADER, "upper"]]);
    expect(workbook.nameList()).toEqual([]); // the block's name is deleted once nothing needs it
  });

  it("should follow the block when a row is inserted above it mid-run", async () => {
    install();
    const source = new ScriptedSource();
    const { done } = await startAndFinishTwo(source);
    workbook.insertRows("Sheet1", 0, 2);
    workbook.setValues("Sheet1", "A1", [["Title typed above"]]);

    expect((await finishAll(source, done)).phase).toBe("done");
    expect(workbook.values("Sheet1", "A1:C3")).toEqual([
      ["Title typed above", "", ""],
      ["", "", ""],
      ["text", STATUS_HEADER, "upper"],
    ]);
    expect(expectEachOutputInItsRow("A", "B", "C")).toBe(6);
  });

  it("should leave a row inserted inside the block alone and still write every record", async () => {
    install();
    const source = new ScriptedSource();
    const { done } = await startAndFinishTwo(source);
    workbook.insertRows("Sheet1", 3); // between b and c
    workbook.setValues("Sheet1", "A4", [["typed later"]]);

    expect((await finishAll(source, done)).phase).toBe("done");
    expect(workbook.values("Sheet1", "A4:C4")).toEqual([["typed later", "", ""]]);
    expect(expectEachOutputInItsRow("A", "B", "C")).toBe(6);
  });

  it("should keep the result of a row deleted mid-run, write it nowhere, and offer it to copy", async () => {
    install();
    const source = new ScriptedSource();
    const { controller, done } = await startAndFinishTwo(source);
    workbook.deleteRows("Sheet1", 4); // d

    const progress = await finishAll(source, done);
    expect(progress.phase).toBe("done");
    expect(progress.kept).toBe(1);
    expect(progress.message).toContain("1 result could not be placed");
    expect(expectEachOutputInItsRow("A", "B", "C")).toBe(5);
    expect(workbook.values("Sheet1", "A7:C8")).toEqual([
      ["", "", ""],
      ["", "", ""],
    ]);
    // With its inputs, so the user can tell which record it is.
    expect(controller.keptResults()).toBe(`text\t${STATUS_HEADER}\tupper\nd\tsuccess\tD`);
    // The name stays while a kept result may need the block.
    expect(workbook.nameList().length).toBe(1);

    // Saved: after a reload the pane still offers the kept result (and nothing to resume).
    workbook.reload();
    const [job] = loadBulkJobs();
    expect(job.keptOnly).toBeTrue();
    expect(loadKeptResults(job.id)).toEqual([
      jasmine.objectContaining({ status: "success", outputs: { upper: "D" }, inputs: ["d"] }),
    ]);
    const notices = jobNotices({
      loadBulkJobs,
      clearBulkJob,
      resume: () => Promise.reject(new Error("not offered")),
      report: fail,
    });
    notices.offer();
    expect(notices.element.hidden).toBeFalse();
    expect(notices.element.textContent).toContain("finished, but 1 result could not be placed");
    expect(notices.element.querySelector("#resume-run")).toBeNull();
    expect(notices.element.querySelector("#copy-kept-job")).not.toBeNull();

    // Written under the block from the notice: the record comes back whole, the job is gone.
    notices.element.querySelector<HTMLElement>("#write-kept-job")!.click();
    await waitFor(() => loadBulkJobs().length === 0, 5_000, "the kept job forgotten");
    expect(workbook.values("Sheet1", "A7:C7")).toEqual([["d", "success", "D"]]);
    expect(workbook.nameList()).toEqual([]);
    expect(notices.element.hidden).toBeTrue();
  });

  it("should write kept results under the block only into empty rows, and forget them once written", async () => {
    install();
    const source = new ScriptedSource();
    const { controller, done } = await startAndFinishTwo(source);
    workbook.deleteRows("Sheet1", 4); // d
    workbook.deleteRows("Sheet1", 2); // b: finished before, stays deleted, nothing kept for it
    workbook.setValues("Sheet1", "C6", [["mine"]]); // under the block, in the output column
    expect((await finishAll(source, done)).kept).toBe(1);

    await expectAsync(controller.writeKeptBelow()).toBeRejectedWithError(
      KeptRowsOccupiedError,
      /C6 under the block is not empty/
    );
    expect(workbook.values("Sheet1", "A6:C6")).toEqual([["", "", "mine"]]);
    expect(controller.progress.kept).toBe(1);

    workbook.setValues("Sheet1", "C6", [[""]]);
    const written = await controller.writeKeptBelow();
    expect(written.rows).toBe(1);
    expect(workbook.values("Sheet1", "A6:C6")).toEqual([["d", "success", "D"]]);
    // Text goes into Text cells (a "=..." input or output would stay text).
    expect(workbook.cell("Sheet1", "A6").numberFormat).toBe("@");
    expect(controller.progress.kept).toBe(0);
    expect(controller.progress.message).toContain("Kept results written to");
    expect(loadBulkJobs()).toEqual([]);
    await expectAsync(controller.writeKeptBelow()).toBeRejectedWithError(/No kept results/);
  });

  it("should find inputs and status by their headers after a column is inserted inside the block", async () => {
    install(true);
    const source = new ScriptedSource();
    const { done } = await startAndFinishTwo(source);
    workbook.insertColumns("Sheet1", 1); // between text and lang
    workbook.setValues("Sheet1", "B1", [["notes"], ["n1"], ["n2"], ["n3"], ["n4"], ["n5"], ["n6"]]);

    expect((await finishAll(source, done)).phase).toBe("done");
    expect(workbook.values("Sheet1", "A1:E1")).toEqual([
      ["text", "notes", "lang", STATUS_HEADER, "upper"],
    ]);
    expect(workbook.values("Sheet1", "B2:B7").flat()).toEqual(["n1", "n2", "n3", "n4", "n5", "n6"]);
    expect(expectEachOutputInItsRow("A", "D", "E")).toBe(6);
  });

  it("should never write into a column the user inserts right of the block mid-run", async () => {
    install();
    const source = new ScriptedSource();
    const { done } = await startAndFinishTwo(source);
    // Between status (B) and outputs (C), and the user types there at once.
    workbook.insertColumns("Sheet1", 2);
    workbook.setValues("Sheet1", "C1", [["mine"], ["m1"], [""], ["m3"], [""], ["m5"], [""]]);

    expect((await finishAll(source, done)).phase).toBe("done");
    expect(workbook.values("Sheet1", "C1:C7").flat()).toEqual([
      "mine",
      "m1",
      "",
      "m3",
      "",
      "m5",
      "",
    ]);
    expect(workbook.values("Sheet1", "D1")).toEqual([["upper"]]);
    expect(expectEachOutputInItsRow("A", "B", "D")).toBe(6);
  });

  it("should follow a row inserted above, a sort and a column inserted while the workbook was closed, then Resume", async () => {
    install();
    const source = new ScriptedSource();
    const { done } = await startAndFinishTwo(source);
    source.live.error(new Error("The page was closed"));
    expect((await done).phase).toBe("failed");
    workbook.reload();
    // While closed: a row inserted above, a sort, a column inserted right of the status column.
    workbook.insertRows("Sheet1", 0);
    workbook.sortRows("Sheet1", 2, 6, (cells) => -String(cells[0]).charCodeAt(0));
    workbook.insertColumns("Sheet1", 2);
    workbook.setValues("Sheet1", "C2", [["mine"]]);

    const job = loadBulkJob();
    expect(job?.token).toEqual(TOKEN);
    const resumed = await new BulkRunController(new ScriptedSource()).resume(job!);

    expect(resumed.phase).toBe("done");
    expect([resumed.kept, resumed.retryable, resumed.stale]).toEqual([0, 0, 0]);
    expect(workbook.values("Sheet1", "A2:D2")).toEqual([["text", STATUS_HEADER, "mine", "upper"]]);
    expect(expectEachOutputInItsRow("A", "B", "D")).toBe(6);
    expect(workbook.nameList()).toEqual([]);
  });
});
