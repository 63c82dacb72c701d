import {
  BulkJobRunner,
  MemoryCheckpointStore,
  type FinishedJobRow,
  type ResultWriter,
} from "../../src/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

/** A writer that closes in `end`, as a file does: any call after it fails. */
class ClosingWriter implements ResultWriter<number> {
  readonly calls: string[] = [];
  readonly rows: FinishedJobRow<number>[] = [];
  constructor(private readonly endFails = false) {}
  write(rows: readonly FinishedJobRow<number>[]): void {
    this.check("write");
    this.rows.push(...rows);
  }
  flush(): void {
    this.check("flush");
  }
  end(): void {
    this.check("end");
    if (this.endFails) throw new Error("disk full on close");
  }
  private check(call: string): void {
    if (this.calls.includes("end")) throw new Error(`${call} after end`);
    this.calls.push(call);
  }
}

describe("BulkJobRunner and its writer's life cycle", () => {
  function job(writer: ResultWriter<number>, store = new MemoryCheckpointStore()) {
    return new BulkJobRunner<number>({
      client: new FakeBulkService().client(),
      spellId: "echo",
      rows: Array.from({ length: 15 }, (_, row) => row),
      inputsOf: (row) => ({ row }),
      windowSize: 5,
      maxWindows: 2,
      store,
      writer,
      // No mark while running: the end must record the last one.
      writtenMarkEveryMs: 60_000,
    });
  }

  it("should flush before end, call nothing after end and record the last written mark", async () => {
    const writer = new ClosingWriter();
    const store = new MemoryCheckpointStore();
    const result = await job(writer, store).run();
    expect(result.error).toBeUndefined();
    expect(result.outcome).toBe("complete");
    expect(writer.calls[writer.calls.length - 1]).toBe("end");
    expect(writer.calls[writer.calls.length - 2]).toBe("flush");
    expect(writer.rows.length).toBe(15);
    // The replayed checkpoint knows every row is written.
    expect(store.load()?.writtenRows).toBe(15);
  });

  it("should not call a job with an error complete", async () => {
    const result = await job(new ClosingWriter(true)).run();
    expect(result.error).toEqual(new Error("disk full on close"));
    expect(result.outcome).toBe("write-error");
  });

  it("should call a job with unknown rows incomplete, not complete", async () => {
    // What kill -9 during window 0's start leaves: its intent, no group.
    const store = new MemoryCheckpointStore([{ type: "intent", window: 0, firstRow: 0, count: 5 }]);
    const writer = new ClosingWriter();
    const runner = new BulkJobRunner<number>({
      client: new FakeBulkService().client(),
      spellId: "echo",
      rows: Array.from({ length: 10 }, (_, row) => row),
      inputsOf: (row) => ({ row }),
      windowSize: 5,
      maxWindows: 2,
      store,
      writer,
      resume: store.load(),
    });
    const result = await runner.run();
    expect(result.counts).toEqual({ unknown: 5, success: 5 });
    expect(result.outcome).toBe("incomplete");
    expect(store.records[store.records.length - 1]).toEqual({
      type: "end",
      outcome: "incomplete",
      rows: 10,
    });
  });
});
