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

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02, countBulkInputs: true });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.resetStats());

  const client = (): SpellClient => emulatorJobClient(emulator);

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
    const rows = Array.from({ length: 8 }, (_, id) => ({ id, ms: id === 0 ? 4_000 : 100 + id }));
    const store = new MemoryCheckpointStore();
    const writes: FinishedJobRow<Row>[] = [];

    const result = await job(rows, store, writes).run();

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
    const rows = Array.from({ length: 6 }, (_, id) => ({ id, ms: id === 0 ? 4_000 : 100 + id }));
    const first = new MemoryCheckpointStore();
    await job(rows, first, []).run();
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
    const rows = Array.from({ length: 5 }, (_, id) => ({ id, ms: id === 0 ? 100 : 30_000 + id }));
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
    fail = false;
    const again = await job(rows, store, writes, { resume: store.load() }).run();
    expect(again.outcome).toBe("complete");
    expect(writes.map((row) => row.index).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(createdPerRow(emulator, rows)).toEqual(new Array(5).fill(1));
    expect(emulator.stats.requests.cancelBulk).toBe(0);
  });
});
