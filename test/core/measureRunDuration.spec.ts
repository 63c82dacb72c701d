import { measureRunDuration } from "../../src/operators/measureRunDuration.js";
import type { RunSnapshot } from "../../src/types.js";
import { marbles } from "./support/testScheduler.js";

const snapshots: Record<string, RunSnapshot> = {
  i: { state: "inProgress", outputs: {} },
  s: { state: "success", outputs: { x: 1 } },
  f: { state: "failure", outputs: {} },
};

describe("measureRunDuration", () => {
  it("should measure to the middle between the last unfinished answer and the success, passing every snapshot on", () => {
    const measured: number[] = [];
    marbles(({ cold, expectObservable }, scheduler) => {
      const source = cold("--i-----i---s|", snapshots);
      expectObservable(source.pipe(measureRunDuration(scheduler, (ms) => measured.push(ms)))).toBe(
        "--i-----i---s|",
        snapshots
      );
    });
    expect(measured).toEqual([10]);
  });

  it("should take the success answer as the end when it is the first answer (an upper bound)", () => {
    const measured: number[] = [];
    marbles(({ cold, expectObservable }, scheduler) => {
      const source = cold("------s|", snapshots);
      expectObservable(source.pipe(measureRunDuration(scheduler, (ms) => measured.push(ms)))).toBe(
        "------s|",
        snapshots
      );
    });
    expect(measured).toEqual([6]);
  });

  it("should not measure a run that does not succeed", () => {
    const measured: number[] = [];
    marbles(({ cold, expectObservable }, scheduler) => {
      const source = cold("--i--f|", snapshots);
      expectObservable(source.pipe(measureRunDuration(scheduler, (ms) => measured.push(ms)))).toBe(
        "--i--f|",
        snapshots
      );
    });
    expect(measured).toEqual([]);
  });
});
