import { expectedEndAround, RunDurationEstimator } from "../../src/runs/RunDurationEstimator.js";

describe("RunDurationEstimator", () => {
  it("should know nothing of a spell it has not seen finish", () => {
    expect(new RunDurationEstimator().expectedEnd("summarize")).toBeUndefined();
  });

  it("should widen one observed duration by 20 % and 50 ms", () => {
    const durations = new RunDurationEstimator();
    durations.record("summarize", 3000);
    expect(durations.expectedEnd("summarize")).toEqual({ lowMs: 2350, highMs: 3650 });
  });

  it("should narrow the margin as runs accumulate, around the observed range", () => {
    const durations = new RunDurationEstimator();
    for (const ms of [900, 1000, 1100, 1000, 1000]) durations.record("s", ms);
    // margin 5 % + 15 % / 5 runs = 8 %
    const expected = durations.expectedEnd("s");
    expect(expected?.lowMs).toBeCloseTo(900 * 0.92 - 50, 6);
    expect(expected?.highMs).toBeCloseTo(1100 * 1.08 + 50, 6);
  });

  it("should keep spells apart and follow a spell that changed (last 8 runs only)", () => {
    const durations = new RunDurationEstimator();
    durations.record("slow", 60_000);
    for (let run = 0; run < 8; run++) durations.record("fast", 1000);
    for (let run = 0; run < 7; run++) durations.record("fast", 2000);
    // One 1 s run is still among the last 8.
    expect(durations.expectedEnd("fast")?.lowMs).toBeLessThan(1000);
    durations.record("fast", 2000);
    expect(durations.expectedEnd("fast")?.lowMs).toBeGreaterThan(1500);
    expect(durations.expectedEnd("slow")?.lowMs).toBeGreaterThan(40_000);
  });

  it("should leave out a run over 3× (or under a third of) the median once it has 3 runs", () => {
    const durations = new RunDurationEstimator();
    for (const ms of [10_000, 50_000]) durations.record("s", ms);
    // Two runs: no median to judge by, both count.
    expect(durations.expectedEnd("s")?.highMs).toBeGreaterThan(50_000);
    for (const ms of [10_500, 9_500, 3_000]) durations.record("s", ms);
    const expected = durations.expectedEnd("s");
    // 50 s and 3 s are outliers against the median of 10 s; the window follows the other three.
    expect(expected?.highMs).toBeCloseTo(10_500 * (1 + 0.05 + 0.15 / 3) + 50, 6);
    expect(expected?.lowMs).toBeCloseTo(9_500 * (1 - 0.05 - 0.15 / 3) - 50, 6);
  });

  it("should forget the least recently finished spell beyond 500 spells", () => {
    const durations = new RunDurationEstimator();
    for (let spell = 0; spell <= 500; spell++) durations.record(`spell-${spell}`, 1000);
    expect(durations.expectedEnd("spell-0")).toBeUndefined();
    expect(durations.expectedEnd("spell-1")).toBeDefined();
    expect(durations.expectedEnd("spell-500")).toBeDefined();
  });

  it("should ignore durations that are not finite non-negative numbers", () => {
    const durations = new RunDurationEstimator();
    for (const ms of [Number.NaN, -5, Infinity]) durations.record("s", ms);
    expect(durations.expectedEnd("s")).toBeUndefined();
  });

  it("should take a caller's expected duration as ±15 %", () => {
    expect(expectedEndAround(10_000)).toEqual({ lowMs: 8500, highMs: 11_500 });
  });
});
