import {
  BulkJobRunner,
  MemoryCheckpointStore,
  RowsChangedError,
  callbackResultWriter,
  type BulkJobOptions,
  type CheckpointRecord,
  type FinishedJobRow,
} from "../../src/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

interface Row {
  id: number;
  text: string;
}

const ROWS: Row[] = Array.from({ length: 12 }, (_, id) => ({ id, text: `row ${id}` }));

/**
 * The resume contract: `rows` from the row the engine asks for, checked against the fingerprints
 * the checkpoint recorded, so that no row is ever written with another row's outputs.
 */
describe("BulkJobRunner's resume contract", () => {
  let service: FakeBulkService;
  let writes: FinishedJobRow<Row>[];

  beforeEach(() => {
    service = new FakeBulkService();
    writes = [];
  });

  function job(store: MemoryCheckpointStore, options: Partial<BulkJobOptions<Row>> = {}) {
    return new BulkJobRunner<Row>({
      client: service.client(),
      spellId: "echo",
      rows: ROWS,
      inputsOf: (row) => ({ text: row.text }),
      windowSize: 5,
      maxWindows: 1,
      store,
      writer: callbackResultWriter((row) => void writes.push(row)),
      writtenMarkEveryMs: 0,
      ...options,
    });
  }

  /** The records of a whole run of the job, cut where a kill left them: rows 0-4 written, window 1 sent. */
  async function killedAfterWindow1Sent(): Promise<CheckpointRecord[]> {
    const whole = new MemoryCheckpointStore();
    await job(whole).run();
    const records = whole.records;
    const cut = records.findIndex((record) => record.type === "group" && record.window === 1);
    const kept: CheckpointRecord[] = records
      .slice(0, cut + 1)
      .filter((record) => record.type !== "written");
    kept.push({ type: "written", rows: 5, counts: { success: 5 } });
    writes = [];
    return kept;
  }

  function expectOwnOutputs(): void {
    for (const row of writes) {
      expect(row.outputs)
        .withContext(`row ${row.index}`)
        .toEqual({ echo: { text: row.row.text } });
      expect(row.row).toBe(ROWS[row.index]);
    }
  }

  it("should refuse the rows still to do given as an iterable, naming the row that differs", async () => {
    const records = await killedAfterWindow1Sent();
    const store = new MemoryCheckpointStore(records);
    const starts = service.starts;
    const result = await job(store, { rows: ROWS.slice(5), resume: store.load() }).run();
    expect(result.outcome).toBe("input-error");
    expect(result.error).toBeInstanceOf(RowsChangedError);
    expect((result.error as RowsChangedError).row).toBe(0);
    expect((result.error as RowsChangedError).message).toContain("row 1 of the job");
    expect(writes).toEqual([]);
    expect(service.starts).toBe(starts);
  });

  it("should ask a function for the rows from the first window not written, and read no other", async () => {
    const records = await killedAfterWindow1Sent();
    const store = new MemoryCheckpointStore(records);
    const asked: number[] = [];
    const starts = service.starts;
    const result = await job(store, {
      rows: (fromRow) => {
        asked.push(fromRow);
        return ROWS.slice(fromRow);
      },
      resume: store.load(),
    }).run();
    expect(asked).toEqual([5]);
    expect(result.outcome).toBe("complete");
    expect(writes.map((row) => row.index)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expectOwnOutputs();
    // Window 1 is re-attached; only window 2 is sent.
    expect(service.starts).toBe(starts + 1);
  });

  it("should refuse a function that gives other rows, before anything is written", async () => {
    const records = await killedAfterWindow1Sent();
    const store = new MemoryCheckpointStore(records);
    const edited = ROWS.map((row) => (row.id === 7 ? { ...row, text: "edited" } : row));
    const result = await job(store, {
      rows: (fromRow) => edited.slice(fromRow),
      resume: store.load(),
    }).run();
    expect(result.outcome).toBe("input-error");
    expect(result.error).toEqual(jasmine.any(RowsChangedError));
    expect((result.error as RowsChangedError).row).toBe(7);
    expect((result.error as RowsChangedError).window).toBe(1);
    expect(writes).toEqual([]);
  });

  it("should name the changed row once, and not claim its window was never sent", async () => {
    const records = await killedAfterWindow1Sent();
    const store = new MemoryCheckpointStore(records);
    const edited = ROWS.map((row) => (row.id === 7 ? { ...row, text: "edited" } : row));
    const result = await job(store, {
      rows: (fromRow) => edited.slice(fromRow),
      resume: store.load(),
    }).run();
    const message = (result.error as RowsChangedError).message;
    expect(message.match(/row 8\b/g)).toEqual(["row 8"]);
    expect(message).toContain("row 8 of the job, window 1");
    expect(message).not.toContain("nothing of this window was sent");
  });

  it("should refuse rows that end before the windows the checkpoint sent", async () => {
    const records = await killedAfterWindow1Sent();
    const store = new MemoryCheckpointStore(records);
    const result = await job(store, { rows: ROWS.slice(0, 5), resume: store.load() }).run();
    expect(result.outcome).toBe("input-error");
    expect(result.error).toEqual(jasmine.any(RowsChangedError));
  });

  it("should still resume a checkpoint of an earlier version (no fingerprints)", async () => {
    const records = (await killedAfterWindow1Sent()).map((record) => {
      if (record.type !== "intent") return record;
      const { fingerprint: _dropped, ...old } = record;
      return old;
    });
    const store = new MemoryCheckpointStore(records);
    const result = await job(store, { resume: store.load() }).run();
    expect(result.outcome).toBe("complete");
    expect(writes.map((row) => row.index)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expectOwnOutputs();
  });
});
