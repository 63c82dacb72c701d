import {
  BulkJobRunner,
  MemoryCheckpointStore,
  callbackResultWriter,
  type Checkpoint,
} from "../../src/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

/**
 * Found by the engine model (test/bulkJob/engineModel.spec.ts): in `writeOrder: "finished"`, a
 * resume whose first window is written at once (`unknown`) moved the written prefix past a row
 * written before the resume, and that row was handed to the writer a second time.
 */
describe("BulkJobRunner resuming rows written as they finished", () => {
  it("should not write again a row written past the first gap before the resume", async () => {
    const service = new FakeBulkService();
    const store = new MemoryCheckpointStore();
    const rows = [0, 1];
    const run = async (resume?: Checkpoint) => {
      const written: number[] = [];
      const result = await new BulkJobRunner<number>({
        client: service.client(),
        spellId: "echo",
        rows,
        inputsOf: (row) => ({ row }),
        windowSize: 1,
        maxWindows: 2,
        writeOrder: "finished",
        store,
        writer: callbackResultWriter((row) => void written.push(row.index)),
        writtenMarkEveryMs: 0,
        ...(resume ? { resume } : {}),
      }).run();
      return { result, written };
    };
    // Window 0's start loses its answer; window 1 runs and is written past the gap.
    service.faults.push("lose-answer");
    const first = await run();
    expect(first.written).toEqual([1]);
    const again = await run(store.load());
    expect(again.written).toEqual([0]);
    expect(again.result.counts).toEqual({ success: 1, unknown: 1 });
  });
});
