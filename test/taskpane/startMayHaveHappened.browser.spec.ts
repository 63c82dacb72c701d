import { Observable, throwError } from "rxjs";
import type { BulkResumeToken, BulkSnapshot } from "../../src/index.js";
import { SpellHttpError, SpellNetworkError, SpellTimeoutError } from "../../src/index.js";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { loadBulkJobs } from "../../taskpane/storedJob/jobStore.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { workbookWith } from "./taskpaneTestKit.js";

/** A service whose bulkStart fails with `error` before any group id is known. */
class FailingStart implements BulkSource {
  starts = 0;
  constructor(private readonly error: unknown) {}
  bulk(): Observable<BulkSnapshot> {
    this.starts++;
    return throwError(() => this.error);
  }
  resumeBulk(_token: BulkResumeToken, _count: number): Observable<BulkSnapshot> {
    return throwError(() => new Error("no group to resume"));
  }
}

async function startThreeRows(source: BulkSource) {
  const rows: MockCellValue[][] = [["text"], ["a"], ["b"], ["c"]];
  const workbook = workbookWith(rows);
  const uninstall = workbook.install();
  const selection = await readSelection();
  const plan = planBulk(selection, defaultMapping(selection.headers), {
    onlyRowsWithoutOutputs: false,
  });
  const controller = new BulkRunController(source);
  return { uninstall, controller, progress: await controller.start(selection, plan, "echo") };
}

describe("BulkRunController when a bulkStart's answer is lost (one failure policy with the core)", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  const lost: [string, unknown][] = [
    ["HTTP 500", new SpellHttpError(500, {}, "POST", "bulkStart")],
    ["HTTP 408", new SpellHttpError(408, {}, "POST", "bulkStart")],
    ["a time-out", new SpellTimeoutError("POST", "bulkStart", 60_000)],
    [
      "a dropped connection",
      new SpellNetworkError("POST", "bulkStart", new Error("socket hang up")),
    ],
  ];
  for (const [name, error] of lost) {
    it(`should keep the job and offer no retry after ${name} (the service may have created the group)`, async () => {
      const source = new FailingStart(error);
      const started = await startThreeRows(source);
      uninstall = started.uninstall;
      const { controller, progress } = started;

      expect(progress.phase).toBe("failed");
      expect(progress.message).toContain("may have started this bulk");
      expect(progress.message).toContain("may pay for them twice");
      // Kept: the notice and Run over this block wait for the user's Forget.
      expect(loadBulkJobs().map((job) => job.spellId)).toEqual(["echo"]);
      expect(progress.retryable).toBe(0);
      await expectAsync(controller.retryFailed()).toBeRejectedWithError(/No failed rows/);
      expect(source.starts).toBe(1);
    });
  }

  it("should forget a start the service refused (nothing was started)", async () => {
    const started = await startThreeRows(
      new FailingStart(new SpellHttpError(401, {}, "POST", "bulkStart"))
    );
    uninstall = started.uninstall;
    expect(started.progress.phase).toBe("failed");
    expect(started.progress.message).not.toContain("may have started");
    expect(loadBulkJobs()).toEqual([]);
  });
});
