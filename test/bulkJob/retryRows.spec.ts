import {
  MemoryCheckpointStore,
  ROW_STATUSES,
  callbackResultWriter,
  retryRows,
  type FinishedJobRow,
  type RowResult,
  type RowStatus,
} from "../../src/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

/** One row per status, twice over. */
const STATUSES: RowStatus[] = [...ROW_STATUSES, ...ROW_STATUSES];
const ROWS = STATUSES.map((_, id) => id);

describe("retryRows", () => {
  async function retry(rerunUnknown?: boolean) {
    const service = new FakeBulkService();
    const written: FinishedJobRow<number>[] = [];
    const earlier = (index: number): RowResult => ({
      status: STATUSES[index],
      outputs: { earlier: index },
    });
    const result = await retryRows<number>({
      client: service.client(),
      spellId: "echo",
      rows: ROWS,
      inputsOf: (row) => ({ row }),
      windowSize: 4,
      maxWindows: 2,
      store: new MemoryCheckpointStore(),
      writer: callbackResultWriter((row) => void written.push(row)),
      previousResultOf: (_row, index) => earlier(index),
      ...(rerunUnknown === undefined ? {} : { rerunUnknown }),
    }).run();
    return { service, written, result };
  }

  it("should run failed, errored, cancelled and expired rows again, keep the others, and write all in order", async () => {
    const { service, written, result } = await retry();
    // The kept unknown rows still have no known end.
    expect(result.outcome).toBe("incomplete");
    const again = new Set<RowStatus>(["failure", "error", "cancelled", "expired"]);
    for (const row of ROWS) {
      expect(service.startsOf({ row }))
        .withContext(`${STATUSES[row]} row ${row}`)
        .toBe(again.has(STATUSES[row]) ? 1 : 0);
    }
    expect(written.map((row) => row.index)).toEqual(ROWS);
    for (const row of written) {
      expect(row.outputs).toEqual(
        again.has(STATUSES[row.index]) ? { echo: { row: row.index } } : { earlier: row.index }
      );
    }
  });

  it("should run unknown rows again only when asked, and never a success nor a skipped row", async () => {
    const { service, result } = await retry(true);
    expect(result.outcome).toBe("complete");
    for (const row of ROWS) {
      expect(service.startsOf({ row }))
        .withContext(`${STATUSES[row]} row ${row}`)
        .toBe(STATUSES[row] === "success" || STATUSES[row] === "skipped" ? 0 : 1);
    }
  });
});
