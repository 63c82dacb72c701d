import {
  DEFAULT_SPENDING_LIMITS,
  emptyLedger,
  judgeStart,
  recordStarts,
  startedInWindow,
} from "../../addin/spendingPolicy.js";

const MINUTE = 60_000;
const limits = { ...DEFAULT_SPENDING_LIMITS, runsBeforeAsking: 3, dailyRunCap: 5 };
const noon = new Date(2026, 10, 23, 12, 0, 0).getTime();

describe("spendingPolicy", () => {
  it("should let runs start up to the threshold in the window, then make them wait", () => {
    let ledger = emptyLedger(noon);
    for (let index = 0; index < 3; index++) {
      expect(judgeStart(ledger, "ask", limits, noon).verdict).toBe("start");
      ledger = recordStarts(ledger, noon, 1, limits);
    }
    expect(judgeStart(ledger, "ask", limits, noon)).toEqual({
      verdict: "wait",
      reason: "threshold",
    });
    expect(startedInWindow(ledger, noon, limits)).toBe(3);
  });

  it("should let the window slide: starts older than 10 minutes no longer count", () => {
    const ledger = recordStarts(emptyLedger(noon), noon, 3, limits);
    expect(judgeStart(ledger, "ask", limits, noon + 10 * MINUTE - 1).verdict).toBe("wait");
    expect(judgeStart(ledger, "ask", limits, noon + 10 * MINUTE).verdict).toBe("start");
  });

  it("should hold an allowed workbook at the daily cap, and start a new day from zero", () => {
    const ledger = recordStarts(emptyLedger(noon), noon, 5, limits);
    expect(judgeStart(ledger, "allowWorkbook", limits, noon + 60 * MINUTE)).toEqual({
      verdict: "wait",
      reason: "dailyCap",
    });
    expect(judgeStart(ledger, "allowWorkbook", limits, noon + 24 * 60 * MINUTE).verdict).toBe(
      "start"
    );
  });

  it("should count a bulk by its rows", () => {
    const ledger = emptyLedger(noon);
    expect(judgeStart(ledger, "allowWorkbook", limits, noon, 5).verdict).toBe("start");
    expect(judgeStart(ledger, "allowWorkbook", limits, noon, 6).verdict).toBe("wait");
  });

  it("should start runs allowed one by one past every limit, and nothing when blocked", () => {
    const full = recordStarts(emptyLedger(noon), noon, 5, limits);
    expect(judgeStart(full, "ask", limits, noon, 1, true).verdict).toBe("start");
    expect(judgeStart(emptyLedger(noon), "block", limits, noon, 1, true).verdict).toBe("block");
  });
});
