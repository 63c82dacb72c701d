import { Subject, filter, lastValueFrom, tap } from "rxjs";
import {
  BulkJobRunner,
  MemoryCheckpointStore,
  SpellClient,
  callbackResultWriter,
  type BulkJobOptions,
  type BulkSnapshot,
  type CheckpointRecord,
  type FinishedJobRow,
} from "spellrun";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { createdPerRow, emulatorJobClient } from "./support/emulatorJobs.js";

const TIME_SCALE = 0.02;
/** A `sleep` that never ends on its own during a spec: 72 s at `TIME_SCALE` (±20 %). */
const SLOW_MS = 3_600_000;

/** One row of these specs: the `sleep` spell's inputs. */
interface Row {
  id: number;
  ms: number;
}

/**
 * What the task pane asks of the engine, against the emulator over real sockets: rows written as
 * they finish (`writeOrder: "finished"`), written marks naming rows past the first gap, a resume
 * that writes none of them again, one window of shared runs (`reuse`) re-attached through the
 * core's token, and a writer that fails: the bulk is detached, never cancelled.
 */
describe("BulkJobRunner for a sheet (rows written as they finish)", () => {
  let emulator: RunningEmulator;
  /** How far the emulator's clock is ahead of the wall clock. */
  let warp = 0;

  beforeAll(async () => {
    emulator = await startEmulator({
      timeScale: TIME_SCALE,
      countBulkInputs: true,
      now: () => Date.now() + warp,
    });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.resetStats());

  const client = (): SpellClient => emulatorJobClient(emulator);

  /**
   * Rows of which row 0 is slow (72 s at the emulator's time scale) and the others take a few
   * milliseconds: row 0 finishes when the spec moves the clock (see `finishFirstRowLast`), never
   * on its own while a loaded machine is slow to poll.
   */
  const slowFirstRow = (count: number): Row[] =>
    Array.from({ length: count }, (_, id) => ({ id, ms: id === 0 ? SLOW_MS : 100 + id }));

  /** Moves the emulator's clock past the end of every slow run started so far. */
  const finishSlowRuns = () => void (warp += SLOW_MS * TIME_SCALE * 1.25);

  /**
   * Waits until the job's written mark names every row but row 0 past the gap, then moves the
   * emulator's clock past row 0's end, and answers the job's result.
   */
  async function finishFirstRowLast<T>(
    running: Promise<T>,
    store: MemoryCheckpointStore,
    rows: number
  ): Promise<T> {
    try {
      await waitUntil(() =>
        store.records.some(
          (record) => record.type === "written" && record.alsoWritten?.length === rows - 1
        )
      );
    } finally {
      finishSlowRuns();
    }
    return running;
  }

  function job(
    rows: Row[],
    store: MemoryCheckpointStore,
    writes: FinishedJobRow<Row>[],
    options: Partial<BulkJobOptions<Row>> = {}
  ): BulkJobRunner<Row> {
    return new BulkJobRunner<Row>({
      client: client(),
      spellId: "sleep",
      rows,
      inputsOf: (row) => ({ id: row.id, ms: row.ms }),
      windowSize: rows.length,
      maxWindows: 1,
      store,
      writer: callbackResultWriter((row) => void writes.push(row)),
      writeOrder: "finished",
      writtenMarkEveryMs: 0,
      ...options,
    });
  }

  it("should write each row as it finishes, once, and mark the rows written past the first gap", async () => {
    // Row 0 is the slowest: in input order nothing could be written before it.
    const rows = slowFirstRow(8);
    const store = new MemoryCheckpointStore();
    const writes: FinishedJobRow<Row>[] = [];

    const result = await finishFirstRowLast(job(rows, store, writes).run(), store, rows.length);

    expect(result.outcome).toBe("complete");
    expect(result.counts).toEqual({ success: 8 });
    expect(writes[0].index).not.toBe(0);
    expect(writes[writes.length - 1].index).toBe(0);
    expect(writes.map((row) => row.index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const marks = store.records.filter((record) => record.type === "written");
    // A mark while row 0 ran names the others past the gap; the last one has every row.
    expect(marks.some((mark) => mark.rows === 0 && (mark.alsoWritten?.length ?? 0) > 0)).toBeTrue();
    expect(marks[marks.length - 1]).toEqual(
      jasmine.objectContaining({ rows: 8, counts: { success: 8 } })
    );
    expect(createdPerRow(emulator, rows)).toEqual(new Array(8).fill(1));
  });

  it("should resume without writing again the rows written past the gap, nor running any row twice", async () => {
    const rows = slowFirstRow(6);
    const first = new MemoryCheckpointStore();
    await finishFirstRowLast(job(rows, first, []).run(), first, rows.length);
    // What a kill leaves: everything up to the first mark that names rows past the gap.
    const cut = first.records.findIndex(
      (record) => record.type === "written" && (record.alsoWritten?.length ?? 0) > 0
    );
    expect(cut).toBeGreaterThan(0);
    const kept: CheckpointRecord[] = first.records.slice(0, cut + 1);
    const mark = kept[cut];
    const marked = mark.type === "written" ? [...(mark.alsoWritten ?? [])] : [];
    const store = new MemoryCheckpointStore(kept);
    const writes: FinishedJobRow<Row>[] = [];
    emulator.resetStats();

    const result = await job(rows, store, writes, { resume: store.load() }).run();

    expect(result.outcome).toBe("complete");
    expect(result.rows).toBe(6);
    const rewritten = writes.map((row) => row.index);
    expect(rewritten.filter((index) => marked.includes(index))).toEqual([]);
    expect([...rewritten, ...marked].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(emulator.stats.requests.bulkStart).toBe(0);
    expect(emulator.stats.bulkRunsCreated).toBe(0);
  });

  it("should re-attach a window of shared runs through the token it recorded", async () => {
    // 8 rows over 3 distinct inputs: 3 runs.
    const inputs = [
      { id: 0, ms: 100 },
      { id: 1, ms: 100 },
      { id: 2, ms: 3_000 },
    ];
    const rows = [0, 1, 0, 1, 0, 1, 0, 2].map((which) => inputs[which]);
    const first = new MemoryCheckpointStore();
    await job(rows, first, [], { bulkOptions: { reuse: true } }).run();
    const group = first.records.find((record) => record.type === "group");
    expect(group?.type === "group" && group.token?.rows).toEqual([0, 1, 0, 1, 0, 1, 0, 2]);
    // The kill: after the group was recorded, nothing written.
    const store = new MemoryCheckpointStore(
      first.records.slice(0, first.records.indexOf(group!) + 1)
    );
    const writes: FinishedJobRow<Row>[] = [];
    emulator.resetStats();

    const result = await job(rows, store, writes, { resume: store.load() }).run();

    expect(result.outcome).toBe("complete");
    expect(result.counts).toEqual({ success: 8 });
    const byIndex = new Map(writes.map((row) => [row.index, row]));
    rows.forEach((row, index) =>
      expect(byIndex.get(index)?.outputs).withContext(`row ${index}`).toEqual({ slept: row.ms })
    );
    expect(emulator.stats.requests.bulkStart).toBe(0);
  });

  it("should detach, not cancel, when the writer fails: the paid runs finish and a resume writes them", async () => {
    // Row 0 ends at once and fails the writer; the others go on until the spec moves the clock.
    const rows = Array.from({ length: 5 }, (_, id) => ({ id, ms: id === 0 ? 100 : SLOW_MS + id }));
    const store = new MemoryCheckpointStore();
    let fail = true;
    const writes: FinishedJobRow<Row>[] = [];
    const failing = job(rows, store, writes, {
      writer: {
        write(batch) {
          if (fail) throw new Error("the sheet is gone");
          writes.push(...batch);
        },
      },
    });

    const result = await failing.run();

    expect(result.outcome).toBe("write-error");
    expect(String(result.error)).toContain("the sheet is gone");
    // Ended at once: the slow runs still go on at the service (the job did not wait for them).
    const group = store.records.find((record) => record.type === "group");
    const token = {
      spellId: "sleep",
      groupIds: [group?.type === "group" ? group.groupId : ""],
      chunkSizes: [5],
    };
    // Read once and detached (an unsubscribe would cancel the group).
    const stop = new Subject<void>();
    let now: BulkSnapshot | undefined;
    await lastValueFrom(
      client()
        .resumeBulk(token, 5, { detach: stop })
        .pipe(
          // The first snapshot that polled the group (before it, every run shows pending).
          filter((snapshot) => snapshot.counts.pending === 0),
          tap((snapshot) => {
            now = snapshot;
            stop.next();
          })
        ),
      { defaultValue: undefined }
    );
    expect(now!.counts.inProgress).toBeGreaterThan(0);
    // Long enough for a cancel to have arrived, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(emulator.stats.requests.cancelBulk).toBe(0);
    finishSlowRuns();
    fail = false;
    const again = await job(rows, store, writes, { resume: store.load() }).run();
    expect(again.outcome).toBe("complete");
    expect(writes.map((row) => row.index).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(createdPerRow(emulator, rows)).toEqual(new Array(5).fill(1));
    expect(emulator.stats.requests.cancelBulk).toBe(0);
  });
});

/** Resolves once `check()` holds (checked every 10 ms); rejects after `timeoutMs`. */
async function waitUntil(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
