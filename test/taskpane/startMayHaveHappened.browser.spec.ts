import { defer, Observable, throwError } from "rxjs";
import type { BulkResumeToken, BulkSnapshot } from "../../src/index.js";
import {
  SpellCodeLoadError,
  SpellHttpError,
  SpellNetworkError,
  SpellTimeoutError,
} from "../../src/index.js";
import { loadCode } from "../../src/util/loadCode.js";
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

/** What webpack's runtime rejects an `import()` with when the chunk's script does not load. */
function chunkLoadError(): Error {
  const error = new Error(
    "Loading chunk src_runs_reusedBulk_ts failed.\n(error: https://localhost:3000/src_runs_reusedBulk_ts.js)"
  );
  error.name = "ChunkLoadError";
  return error;
}

/** A client whose bulk needs a chunk that does not load (as `client.bulk` with reuse). */
class ChunkFailsToLoad implements BulkSource {
  starts = 0;
  bulk(): Observable<BulkSnapshot> {
    this.starts++;
    return defer(() =>
      loadCode("./runs/reusedBulk.js", () => Promise.reject(chunkLoadError()))
    ) as Observable<never>;
  }
  resumeBulk(_token: BulkResumeToken, _count: number): Observable<BulkSnapshot> {
    return throwError(() => new Error("no group to resume"));
  }
}

describe("BulkRunController when the add-in's code fails to load before the start", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should say nothing was sent and ask for Run again, keeping no job (not 'may have started')", async () => {
    const source = new ChunkFailsToLoad();
    const started = await startThreeRows(source);
    uninstall = started.uninstall;

    expect(started.progress.phase).toBe("failed");
    expect(started.progress.message).toBe(
      "Nothing was sent: the add-in's code failed to load. Check the connection and press Run again."
    );
    expect(started.progress.message).not.toContain("may have started");
    // Nothing kept: Run over the same rows is free to start again.
    expect(loadBulkJobs()).toEqual([]);
    expect(source.starts).toBe(1);
  });

  it("should still say the bulk may have started for a failed load the core did not place before sending", async () => {
    // Only `SpellCodeLoadError` promises that nothing left; any other error keeps the money-safe words.
    const started = await startThreeRows(new FailingStart(chunkLoadError()));
    uninstall = started.uninstall;
    expect(started.progress.message).toContain("may have started this bulk");
    expect(loadBulkJobs().map((job) => job.spellId)).toEqual(["echo"]);
  });

  it("should name the module in the core's own error, for the logs", () => {
    const error = new SpellCodeLoadError("./runs/reusedBulk.js", chunkLoadError());
    expect(error.message).toContain("./runs/reusedBulk.js");
    expect(error.message).toContain("nothing was sent");
  });
});
