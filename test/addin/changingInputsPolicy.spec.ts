import {
  DEFAULT_CHANGING_INPUTS_LIMITS,
  forgetCellStart,
  judgeCellInputs,
  recordCellStart,
  type CellStarts,
} from "../../addin/changingInputsPolicy.js";

const MINUTE = 60_000;
const limits = DEFAULT_CHANGING_INPUTS_LIMITS;
const noon = new Date(2026, 10, 26, 12, 0, 0).getTime();

/** The starts of a cell that ran these inputs, one a minute from noon. */
function ranInputs(inputs: string[]): CellStarts {
  let starts: CellStarts = [];
  inputs.forEach((input, minute) => {
    starts = recordCellStart(starts, input, noon + minute * MINUTE, limits);
  });
  return starts;
}

describe("changingInputsPolicy", () => {
  it("should start the formula as typed and two variants, and make the 4th different input within 10 minutes wait", () => {
    expect(judgeCellInputs([], "a", noon, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs(["a"]), "b", noon + MINUTE, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs(["a", "b"]), "c", noon + 2 * MINUTE, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs(["a", "b", "c"]), "d", noon + 3 * MINUTE, limits)).toBe(
      "wait"
    );
  });

  it("should not count a run of inputs the cell ran within the window (a failed run calculated again)", () => {
    const starts = ranInputs(["a", "b", "c"]);
    expect(judgeCellInputs(starts, "b", noon + 3 * MINUTE, limits)).toBe("start");
    expect(recordCellStart(starts, "b", noon + 3 * MINUTE, limits).length).toBe(3);
  });

  it("should let the window slide: inputs started 10 minutes ago no longer count", () => {
    const starts = ranInputs(["a", "b", "c"]);
    // "a" started at noon: it leaves the window at 12:10 exactly.
    expect(judgeCellInputs(starts, "d", noon + 10 * MINUTE - 1, limits)).toBe("wait");
    expect(judgeCellInputs(starts, "d", noon + 10 * MINUTE, limits)).toBe("start");
  });

  it("should forget a start the service refused, so it is no change of inputs", () => {
    const starts = forgetCellStart(ranInputs(["a", "b", "c"]), "c");
    expect(judgeCellInputs(starts, "d", noon + 3 * MINUTE, limits)).toBe("start");
  });

  it("should keep a cell's memory short whatever it ran", () => {
    const inputs = Array.from({ length: 100 }, (_, index) => `input ${index}`);
    let starts: CellStarts = [];
    for (const input of inputs) starts = recordCellStart(starts, input, noon, limits);
    expect(starts.length).toBe(16);
    expect(judgeCellInputs(starts, "another", noon, limits)).toBe("wait");
  });
});
