import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkJob } from "../../taskpane/storedJob/BulkJob.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import { emulatorClient, workbookWith } from "./taskpaneTestKit.js";

/** A stored job as a crafted workbook could carry it: a group id, but windows naming no row. */
function craftedJob(windows: BulkJob["windows"]): BulkJob {
  return {
    id: "crafted",
    version: 1,
    spellId: "echo",
    sheet: "Sheet1",
    headerRow: 0,
    rows: [1, 2],
    inputColumns: [0],
    inputNames: ["text"],
    fingerprints: ["a", "b"],
    statusColumn: 1,
    outputNames: [],
    handled: [],
    startedAt: 0,
    token: { spellId: "echo", groupIds: ["group-1"], chunkSizes: [2] },
    windows,
  };
}

describe("Resume of a stored job whose windows do not cover its rows", () => {
  let uninstall: () => void = () => undefined;

  beforeEach(async () => {
    await resetEmulator();
    uninstall = workbookWith([["text"], ["one"], ["two"]]).install();
  });
  afterEach(() => uninstall());

  for (const [what, windows] of [
    ["no windows", []],
    ["a window of fewer rows", [{ window: 0, count: 1, token: craftedJob(undefined).token }]],
    ["a window without its group", [{ window: 0, count: 2 }]],
  ] as [string, BulkJob["windows"]][]) {
    it(`should refuse (${what}) and send nothing`, async () => {
      const controller = new BulkRunController(emulatorClient());

      await expectAsync(controller.resume(craftedJob(windows))).toBeRejectedWithError(
        /cannot|could only start them again/
      );

      const stats = await emulatorStats();
      expect(stats.requests.bulkStart ?? 0).toBe(0);
      expect(controller.running).toBeFalse();
    });
  }
});
