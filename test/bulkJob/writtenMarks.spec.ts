import { Subject, type Observable } from "rxjs";
import {
  BulkJobRunner,
  MemoryCheckpointStore,
  callbackResultWriter,
  type BulkSnapshot,
} from "../../src/index.js";

/** A client whose every bulk is a Subject the spec drives. */
class DrivenClient {
  readonly bulks: Subject<BulkSnapshot>[] = [];
  bulk(): Observable<BulkSnapshot> {
    const bulk = new Subject<BulkSnapshot>();
    this.bulks.push(bulk);
    return bulk;
  }
  resumeBulk(): Observable<BulkSnapshot> {
    throw new Error("not in this spec");
  }
  /** Ends bulk `index` with one successful run. */
  finish(index: number): void {
    const runs = [{ state: "success" as const, outputs: { index } }];
    this.bulks[index].next({
      groupIds: [`g${index}`],
      runs,
      done: true,
    } as unknown as BulkSnapshot);
    this.bulks[index].complete();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("BulkJobRunner written marks", () => {
  it("should record a written mark at most every 500 ms, and the last rows when the job ends", async () => {
    let now = 0;
    const client = new DrivenClient();
    const store = new MemoryCheckpointStore();
    const job = new BulkJobRunner({
      client: client as never,
      spellId: "echo",
      rows: [0, 1, 2, 3, 4],
      inputsOf: (row) => ({ row }),
      windowSize: 1,
      maxWindows: 5,
      store,
      writer: callbackResultWriter(() => undefined),
      now: () => now,
    });
    const done = job.run();
    await settle();
    expect(client.bulks.length).toBe(5);
    const marks = () =>
      store.records.filter((record) => record.type === "written").map((record) => record.rows);

    for (const [index, at] of [0, 100, 200, 600].entries()) {
      now = at;
      client.finish(index);
      await settle();
    }
    // 0 ms: the first mark; 100 and 200 ms: too soon; 600 ms: due.
    expect(marks()).toEqual([1, 4]);
    now = 700; // too soon for a mark, but the job ends with this row
    client.finish(4);
    await done;
    // The end records the rows written since the last mark.
    expect(marks()).toEqual([1, 4, 5]);
    expect(store.records[store.records.length - 1]).toEqual({
      type: "end",
      outcome: "complete",
      rows: 5,
    });
  });
});
