import { countRunStates } from "../../src/index.js";

describe("countRunStates", () => {
  it("should count runs per state, every state present", () => {
    expect(countRunStates([])).toEqual({
      pending: 0,
      inProgress: 0,
      success: 0,
      failure: 0,
      error: 0,
    });
    expect(
      countRunStates([{ state: "success" }, { state: "pending" }, { state: "success" }])
    ).toEqual({ pending: 1, inProgress: 0, success: 2, failure: 0, error: 0 });
  });
});
