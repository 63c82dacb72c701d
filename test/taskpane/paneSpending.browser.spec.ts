import { of, throwError } from "rxjs";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkProgress } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { BULK_JOB_SETTING } from "../../taskpane/storedJob/jobSettings.js";
import { SpendingGuardError } from "../../addin/SpendingGuardError.js";
import { SpendingGuard } from "../../addin/spending/SpendingGuard.js";
import { emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";
import type { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { emulatorClient, waitFor, workbookWith } from "./taskpaneTestKit.js";

async function runSelection(controller: BulkRunController, spellId: string): Promise<BulkProgress> {
  const selection = await readSelection();
  const plan = planBulk(selection, defaultMapping(selection.headers), {
    onlyRowsWithoutOutputs: false,
  });
  return controller.start(selection, plan, spellId);
}

describe("the task pane's spending charge (every start through the engine's beforeStart)", () => {
  let workbook: MockWorkbook;
  let uninstall: () => void = () => undefined;

  beforeEach(async () => {
    await resetEmulator();
  });
  afterEach(() => uninstall());

  it("should charge Run with the runs really sent (identical rows share one), not the planned rows", async () => {
    workbook = workbookWith([["x"], [1], [1], [2], [2], [3]]);
    uninstall = workbook.install();
    const charged: number[] = [];
    const controller = new BulkRunController(emulatorClient(), Date.now, (runs) => {
      charged.push(runs);
      return of(undefined);
    });

    const progress = await runSelection(controller, "echo");

    expect(progress.phase).toBe("done");
    expect(charged).toEqual([3]);
  });

  it("should charge Retry failed rows too", async () => {
    workbook = workbookWith([["ms"], [0], [200_000], [0]]);
    uninstall = workbook.install();
    const charged: number[] = [];
    const controller = new BulkRunController(emulatorClient(), Date.now, (runs) => {
      charged.push(runs);
      return of(undefined);
    });
    const first = runSelection(controller, "sleep");
    await waitFor(() => controller.progress.finished >= 2, 10_000, "the quick rows");
    await controller.cancel();
    await first;
    workbook.setValues("Sheet1", "A3", [[1]]);

    await controller.retryFailed();

    // Run: two distinct rows (the two 0s share one); Retry: the cancelled row, now 1.
    expect(charged).toEqual([2, 1]);
  });

  it("should send nothing and keep no job when the gate refuses, and say why", async () => {
    workbook = workbookWith([["x"], [1], [2]]);
    uninstall = workbook.install();
    const controller = new BulkRunController(emulatorClient(), Date.now, () =>
      throwError(
        () => new SpendingGuardError("dailyCap", "This bulk of 2 runs would pass today's cap.")
      )
    );

    const progress = await runSelection(controller, "echo");

    expect(progress.phase).toBe("failed");
    expect(progress.message).toContain("today's cap");
    expect(progress.message).not.toContain("may have started");
    expect((await emulatorStats()).requests.bulkStart ?? 0).toBe(0);
    expect(
      Object.keys(workbook.savedSettings).filter((k) => k.startsWith(BULK_JOB_SETTING))
    ).toEqual([]);
  });

  /** A controller charging a spending guard of its own (daily cap `cap`), as the add-in does. */
  function guardedController(cap: number): { controller: BulkRunController; guard: SpendingGuard } {
    const guard = new SpendingGuard(undefined, undefined, {
      runsBeforeAsking: 5,
      dailyRunCap: cap,
    });
    const controller = new BulkRunController(
      emulatorClient(),
      Date.now,
      (runs) => guard.beforePaneStart(runs),
      (runs) => guard.refund(runs, "pane")
    );
    return { controller, guard };
  }

  const startedToday = (guard: SpendingGuard) =>
    new Promise<number>((resolve) =>
      guard.state$.subscribe((state) => resolve(state.startedToday)).unsubscribe()
    );

  it("should give back a start the service refused (unknown spell), so a start within the cap runs", async () => {
    workbook = workbookWith([["x"], ...Array.from({ length: 36 }, (_, i) => [i])]);
    uninstall = workbook.install();
    const { controller, guard } = guardedController(40);

    const refused = await runSelection(controller, "nosuch-spell");
    expect(refused.phase).toBe("failed");
    expect(await startedToday(guard)).toBe(0);

    const progress = await runSelection(controller, "echo");

    expect(progress.phase).toBe("done");
    expect(progress.message).not.toContain("cap");
    expect(await startedToday(guard)).toBe(36);
  });

  it("should keep Retry failed rows after a retry the daily cap refused, and run it once the cap is raised", async () => {
    workbook = workbookWith([["x"], [1], [2], [3]]);
    uninstall = workbook.install();
    const { controller, guard } = guardedController(5);
    const first = await runSelection(controller, "always-fails");
    expect(first.retryable).toBe(3);

    const capped = await controller.retryFailed();
    expect(capped.phase).toBe("failed");
    expect(capped.message).toContain("cap");
    expect(capped.retryable).toBe(3);

    guard.useLimits({ runsBeforeAsking: 5, dailyRunCap: 100 });
    const before = (await emulatorStats()).requests.bulkStart ?? 0;
    await controller.retryFailed();
    expect((await emulatorStats()).requests.bulkStart ?? 0).toBe(before + 1);
    expect(await startedToday(guard)).toBe(6);
  });

  it("should still count a start whose answer was lost after it was sent (it may have started)", async () => {
    await resetEmulator({ dropRate: 1, dropPhase: "after", endpoints: ["bulkStart"] });
    workbook = workbookWith([["x"], [1], [2], [3]]);
    uninstall = workbook.install();
    const { controller, guard } = guardedController(40);

    const progress = await runSelection(controller, "echo");

    expect(progress.phase).toBe("failed");
    expect(progress.message).toContain("may have started");
    expect(await startedToday(guard)).toBe(3);
  });
});
