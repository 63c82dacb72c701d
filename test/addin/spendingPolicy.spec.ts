import {
  DEFAULT_SPENDING_LIMITS,
  emptyLedger,
  judgeStart,
  recordStarts,
  startedInWindow,
} from "../../addin/spendingPolicy.js";
import fc from "fast-check";

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

  it("should keep a recalculation's starts in one entry, dated by the latest", () => {
    let ledger = emptyLedger(noon);
    ledger = recordStarts(ledger, noon, 1, limits);
    ledger = recordStarts(ledger, noon + 900, 2, limits);
    expect(ledger.recent).toEqual([{ at: noon + 900, runs: 3 }]);
    ledger = recordStarts(ledger, noon + 1_100, 1, limits);
    expect(ledger.recent.length).toBe(2);
    // The first start stays in the window until 10 minutes after the entry's date, not less.
    expect(startedInWindow(ledger, noon + 10 * MINUTE + 500, limits)).toBe(4);
  });

  it("should count every start in the window for its full 10 minutes and each day's from zero (generated starts)", () => {
    const startArbitrary = fc.record({
      gapMs: fc.oneof(
        fc.integer({ min: 0, max: 1_500 }),
        fc.integer({ min: 0, max: 8 * 60 * MINUTE })
      ),
      runs: fc.integer({ min: 1, max: 500 }),
    });
    fc.assert(
      fc.property(fc.array(startArbitrary, { minLength: 1, maxLength: 60 }), (starts) => {
        let ledger = emptyLedger(noon);
        let now = noon - 12 * 60 * MINUTE;
        const made: Array<{ at: number; runs: number }> = [];
        for (const { gapMs, runs } of starts) {
          now += gapMs;
          ledger = recordStarts(ledger, now, runs, limits);
          made.push({ at: now, runs });
          const inWindow = (from: number) =>
            made.filter((start) => start.at > from).reduce((sum, start) => sum + start.runs, 0);
          for (const later of [0, 1, 999, 5 * MINUTE, 10 * MINUTE - 1, 10 * MINUTE + 999]) {
            const at = now + later;
            const counted = startedInWindow(ledger, at, limits);
            // Never less than the starts really in the window (money), at most a second more.
            expect(counted).toBeGreaterThanOrEqual(inWindow(at - limits.windowMs));
            expect(counted).toBeLessThanOrEqual(inWindow(at - limits.windowMs - 1_000));
          }
          const dayOf = (time: number) => new Date(time).toDateString();
          const today = made
            .filter((start) => dayOf(start.at) === dayOf(now))
            .reduce((sum, start) => sum + start.runs, 0);
          expect(ledger.startedToday).toBe(today);
        }
      })
    );
  });
});
