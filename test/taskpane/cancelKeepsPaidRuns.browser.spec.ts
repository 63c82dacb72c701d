import { Observable, of, Subject } from "rxjs";
import type { BulkResumeToken, BulkRunEntry, BulkSnapshot } from "../../src/index.js";
import { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import type { BulkSource } from "../../taskpane/bulk/bulkRunController.js";
import { defaultMapping, planBulk } from "../../taskpane/bulk/planBulk.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { loadBulkJob } from "../../taskpane/storedJob/jobStore.js";
import { CANCELLED_STATUS } from "../../taskpane/sheet/statusText.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { waitFor, workbookWith } from "./taskpaneTestKit.js";

const TOKEN: BulkResumeToken = { spellId: "echo", groupIds: ["group-1"], chunkSizes: [6] };

function snapshot(runs: BulkRunEntry[]): BulkSnapshot {
  const counts = { pending: 0, inProgress: 0, success: 0, failure: 0, error: 0 };
  for (const run of runs) counts[run.state]++;
  return {
    groupId: "group-1",
    groupIds: ["group-1"],
    runs,
    done: counts.pending + counts.inProgress === 0,
    total: runs.length,
    counts,
    resume: TOKEN,
  };
}

const success = (text: string): BulkRunEntry => ({ state: "success", outputs: { text } });
const running: BulkRunEntry = { state: "inProgress", outputs: {} };
const cancelledByService: BulkRunEntry = { state: "error", outputs: { error: "Cancelled" } };

/**
 * A service whose bulk is driven by the spec: `live` emits the polls the pane sees; after the
 * cancel, `resumeBulk` answers what the service shows then.
 */
class ScriptedSource implements BulkSource {
  readonly live = new Subject<BulkSnapshot>();
  subscribedLive = false;
  unsubscribedLive = false;
  resumeCalls = 0;
  constructor(private readonly afterCancel: Observable<BulkSnapshot>) {}

  bulk(): Observable<BulkSnapshot> {
    return new Observable<BulkSnapshot>((subscriber) => {
      const subscription = this.live.subscribe(subscriber);
      this.subscribedLive = true;
      return () => {
        this.unsubscribedLive = true;
        subscription.unsubscribe();
      };
    });
  }

  resumeBulk(token: BulkResumeToken, count: number): Observable<BulkSnapshot> {
    this.resumeCalls++;
    expect(token).toEqual(TOKEN);
    expect(count).toBe(6);
    return this.afterCancel;
  }
}

/**
 * Sheet1 holds `text` over a–f, selected; starts an `echo` bulk over every row and resolves once
 * the bulk subscribed to `source`. `installed` receives the workbook's uninstall.
 */
async function startSixRows(
  source: ScriptedSource,
  installed: (uninstall: () => void) => void,
  now?: () => number
) {
  const rows: MockCellValue[][] = [["text"], ["a"], ["b"], ["c"], ["d"], ["e"], ["f"]];
  const workbook = workbookWith(rows);
  installed(workbook.install());
  const selection = await readSelection();
  const plan = planBulk(selection, defaultMapping(selection.headers), {
    onlyRowsWithoutOutputs: false,
  });
  const controller = new BulkRunController(source, now);
  const finished = controller.start(selection, plan, "echo");
  await waitFor(() => source.subscribedLive, 5_000, "the bulk subscribed");
  return { workbook, controller, finished };
}

describe("BulkRunController cancel", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  const startOver = (source: ScriptedSource) =>
    startSixRows(source, (remove) => (uninstall = remove));

  it("should write the runs that finished since the last poll (paid for) and mark only the rest cancelled", async () => {
    // Seen by the last poll: a and b done. Between that poll and the cancel, c and d finished.
    const source = new ScriptedSource(
      of(
        snapshot([
          success("a"),
          success("b"),
          success("c"),
          success("d"),
          cancelledByService,
          cancelledByService,
        ])
      )
    );
    const { workbook, controller, finished } = await startOver(source);
    source.live.next(snapshot([success("a"), success("b"), running, running, running, running]));
    await waitFor(() => controller.progress.finished >= 2, 5_000, "the first poll applied");

    await controller.cancel();
    const progress = await finished;

    expect(source.unsubscribedLive).toBeTrue();
    expect(source.resumeCalls).toBe(1);
    expect(progress.phase).toBe("cancelled");
    expect(progress.counts.success).toBe(4);
    expect(progress.counts.error).toBe(0);
    expect(progress.cancelled).toBe(2);
    expect(workbook.values("Sheet1", "B2:C7")).toEqual([
      ["success", "a"],
      ["success", "b"],
      ["success", "c"],
      ["success", "d"],
      [CANCELLED_STATUS, ""],
      [CANCELLED_STATUS, ""],
    ]);
  });

  it("should mark the unfinished rows cancelled when the groups cannot be read after the cancel", async () => {
    const source = new ScriptedSource(
      new Observable<BulkSnapshot>((subscriber) => subscriber.error(new Error("offline")))
    );
    const { workbook, controller, finished } = await startOver(source);
    source.live.next(snapshot([success("a"), running, running, running, running, running]));
    await waitFor(() => controller.progress.finished >= 1, 5_000, "the first poll applied");

    await controller.cancel();
    const progress = await finished;

    expect(progress.phase).toBe("cancelled");
    expect(progress.cancelled).toBe(5);
    expect(workbook.values("Sheet1", "B2:B7")).toEqual([
      ["success"],
      [CANCELLED_STATUS],
      [CANCELLED_STATUS],
      [CANCELLED_STATUS],
      [CANCELLED_STATUS],
      [CANCELLED_STATUS],
    ]);
  });

  it("should change nothing stored when a second start is refused", async () => {
    const source = new ScriptedSource(of());
    const { controller } = await startOver(source);
    const before = loadBulkJob();
    expect(before?.rows).toEqual([1, 2, 3, 4, 5, 6]);
    const selection = await readSelection();
    const plan = planBulk(selection, defaultMapping(selection.headers), {
      onlyRowsWithoutOutputs: false,
    });
    plan.rows = plan.rows.slice(0, 2);

    await expectAsync(controller.start(selection, plan, "other-spell")).toBeRejectedWithError(
      /already running/
    );

    expect(loadBulkJob()).toEqual(before);
  });
});

describe("BulkRunController pipeline", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  const startOver = (source: ScriptedSource) =>
    startSixRows(source, (remove) => (uninstall = remove));

  it("should fold snapshots that arrive during a write: only the newest is applied, every row written once", async () => {
    const source = new ScriptedSource(of());
    const { workbook, controller, finished } = await startOver(source);
    const before = workbook.stats.writeSyncs;
    let pushed = false;
    workbook.afterSync = () => {
      if (pushed) return;
      // Two polls answer while the first write is going on.
      pushed = true;
      source.live.next(snapshot([success("a"), success("b"), running, running, running, running]));
      source.live.next(
        snapshot([success("a"), success("b"), success("c"), running, running, running])
      );
    };
    source.live.next(snapshot([success("a"), running, running, running, running, running]));
    await waitFor(() => controller.progress.finished >= 3, 5_000, "the third row applied");

    // The first snapshot's write and one for the newest: the one in between was overtaken.
    expect(workbook.stats.writeSyncs - before).toBe(2);
    expect(workbook.values("Sheet1", "B2:C4")).toEqual([
      ["success", "a"],
      ["success", "b"],
      ["success", "c"],
    ]);
    source.live.next(snapshot(["a", "b", "c", "d", "e", "f"].map(success)));
    source.live.complete();
    const progress = await finished;
    expect(progress.phase).toBe("done");
    expect(workbook.values("Sheet1", "C2:C7")).toEqual([["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]);
  });

  it("should save the rows written at most every 2 s, and every one of them when the bulk stops", async () => {
    let now = 1_000_000;
    const source = new ScriptedSource(of());
    const { workbook, controller, finished } = await startSixRows(
      source,
      (remove) => (uninstall = remove),
      () => now
    );
    const before = workbook.stats.settingsSaves;
    const finish = async (done: string[]) => {
      const runs = ["a", "b", "c", "d", "e", "f"].map((text) =>
        done.includes(text) ? success(text) : running
      );
      source.live.next(snapshot(runs));
      await waitFor(() => controller.progress.finished >= done.length, 5_000, "applied");
    };
    await finish(["a"]); // the token: saved before the write
    await finish(["a", "b"]);
    await finish(["a", "b", "c"]);
    expect(workbook.stats.settingsSaves - before).toBe(1);
    expect(loadBulkJob()?.handled).toEqual([]);

    now += 2_500; // the next write's progress is saved again
    await finish(["a", "b", "c", "d"]);
    expect(workbook.stats.settingsSaves - before).toBe(2);
    expect(loadBulkJob()?.handled).toEqual([0, 1, 2, 3]);

    await finish(["a", "b", "c", "d", "e"]);
    source.live.error(new Error("the network went away"));
    expect((await finished).phase).toBe("failed");
    // Stopped with something to resume: every row written is marked, none is written twice.
    expect(loadBulkJob()?.handled).toEqual([0, 1, 2, 3, 4]);
  });

  it("should stop spending when the sheet cannot be written: unsubscribed, failed, the job kept for Resume", async () => {
    const source = new ScriptedSource(of());
    const { workbook, finished } = await startOver(source);
    workbook.payloadLimitBytes = 1;
    source.live.next(snapshot([success("a"), running, running, running, running, running]));
    const progress = await finished;

    expect(progress.phase).toBe("failed");
    expect(progress.message).toMatch(
      /^Could not write to the sheet: .*Resume collects its results\.$/
    );
    expect(source.unsubscribedLive).toBeTrue();
    workbook.payloadLimitBytes = 5 * 1024 * 1024;
    expect(loadBulkJob()?.token).toEqual(TOKEN);
    expect(workbook.values("Sheet1", "B2:B7").flat()).toEqual(["", "", "", "", "", ""]);
  });
});
