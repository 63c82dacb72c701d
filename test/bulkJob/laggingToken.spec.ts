import { of, type Observable } from "rxjs";
import {
  BulkJobRunner,
  MemoryCheckpointStore,
  callbackResultWriter,
  type BulkSnapshot,
  type FinishedJobRow,
} from "../../src/index.js";

/**
 * A window of several chunks killed after its first group was recorded: the second chunk's
 * bulkStart may have left. Its rows are `unknown` (never re-sent by a retry), not `error`.
 */
describe("BulkJobRunner resuming a window whose token names fewer groups than chunks", () => {
  it("should write the rows of the unnamed chunks unknown, and call the job incomplete", async () => {
    const store = new MemoryCheckpointStore([
      { type: "intent", window: 0, firstRow: 0, count: 4 },
      {
        type: "group",
        window: 0,
        groupId: "g0",
        token: { spellId: "echo", groupIds: ["g0"], chunkSizes: [2, 2] },
      },
    ]);
    let bulks = 0;
    const client = {
      bulk(): Observable<BulkSnapshot> {
        bulks++;
        throw new Error("nothing is sent on this resume");
      },
      resumeBulk(): Observable<BulkSnapshot> {
        // What the core answers: chunk 1 has no group in the token.
        const unnamed = {
          state: "error" as const,
          outputs: { error: "Unknown: may have been sent" },
        };
        return of({
          groupId: "g0",
          groupIds: ["g0"],
          runs: [
            { state: "success", outputs: { echo: 0 } },
            { state: "success", outputs: { echo: 1 } },
            unnamed,
            unnamed,
          ],
          done: true,
          total: 4,
          counts: { pending: 0, inProgress: 0, success: 2, failure: 0, error: 2 },
          resume: { spellId: "echo", groupIds: ["g0"], chunkSizes: [2, 2] },
        } satisfies BulkSnapshot);
      },
    };
    const written: FinishedJobRow<number>[] = [];
    const result = await new BulkJobRunner<number>({
      client,
      spellId: "echo",
      rows: [0, 1, 2, 3],
      inputsOf: (row) => ({ row }),
      windowSize: 4,
      maxWindows: 1,
      store,
      writer: callbackResultWriter((row) => void written.push(row)),
      resume: store.load(),
    }).run();
    expect(written.map((row) => row.status)).toEqual(["success", "success", "unknown", "unknown"]);
    expect(result.outcome).toBe("incomplete");
    expect(bulks).toBe(0);
  });
});
