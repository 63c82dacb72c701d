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
function ranInputs(inputs: number[]): CellStarts {
  let starts: CellStarts = [];
  inputs.forEach((input, minute) => {
    starts = recordCellStart(starts, input, noon + minute * MINUTE, limits);
  });
  return starts;
}

describe("changingInputsPolicy", () => {
  it("should start the formula as typed and two variants, and make the 4th different input within 10 minutes wait", () => {
    expect(judgeCellInputs([], 1, noon, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs([1]), 2, noon + MINUTE, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs([1, 2]), 3, noon + 2 * MINUTE, limits)).toBe("start");
    expect(judgeCellInputs(ranInputs([1, 2, 3]), 4, noon + 3 * MINUTE, limits)).toBe("wait");
  });

  it("should not count a run of inputs the cell ran within the window (a failed run calculated again)", () => {
    const starts = recordCellStart(ranInputs([1, 2, 3]), 2, noon + 3 * MINUTE, limits);
    expect(judgeCellInputs(starts, 2, noon + 4 * MINUTE, limits)).toBe("start");
    expect(starts.length).toBe(3);
    // Still 3 different inputs: a new one waits.
    expect(judgeCellInputs(starts, 4, noon + 4 * MINUTE, limits)).toBe("wait");
  });

  it("should let the window slide: inputs started 10 minutes ago no longer count", () => {
    const starts = ranInputs([1, 2, 3]);
    // Input 1 started at noon: it leaves the window at 12:10 exactly.
    expect(judgeCellInputs(starts, 4, noon + 10 * MINUTE - 1, limits)).toBe("wait");
    expect(judgeCellInputs(starts, 4, noon + 10 * MINUTE, limits)).toBe("start");
  });

  it("should forget a start the service refused, so it is no change of inputs", () => {
    const starts = forgetCellStart(ranInputs([1, 2, 3]), 3);
    expect(judgeCellInputs(starts, 4, noon + 3 * MINUTE, limits)).toBe("start");
    const after = recordCellStart(starts, 4, noon + 3 * MINUTE, limits);
    expect(judgeCellInputs(after, 5, noon + 4 * MINUTE, limits)).toBe("wait");
  });

  it("should keep a cell's memory short whatever it ran", () => {
    const inputs = Array.from({ length: 100 }, (_, index) => index);
    let starts: CellStarts = [];
    for (const input of inputs) starts = recordCellStart(starts, input, noon, limits);
    expect(starts.length).toBe(16);
    expect(judgeCellInputs(starts, 1000, noon, limits)).toBe("wait");
  });
});
