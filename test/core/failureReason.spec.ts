import { failureReason, SpellRunError } from "../../src/index.js";
import { statusText } from "../../taskpane/sheet/statusText.js";
import { formatRows } from "../../cli/job/formatRows.js";
import { toExcelError } from "../../functions/toExcelError.js";

describe("failureReason", () => {
  it("should take the first non-empty text among reason, error, message and detail", () => {
    expect(failureReason({ detail: "d", message: "m", error: "e", reason: " r " })).toBe("r");
    expect(failureReason({ reason: "  ", error: 7, message: "m" })).toBe("m");
    expect(failureReason({ detail: "d" })).toBe("d");
    expect(failureReason({ code: 7 })).toBeUndefined();
    expect(failureReason(undefined)).toBeUndefined();
    expect(new SpellRunError("failure", { error: "too long" }).reason).toBe("too long");
  });

  it("should be the one reason the cell, the task pane and the command line show", () => {
    // The task pane used to prefer `message`, the cell and the command line `reason`.
    const outputs = { message: "generic", reason: "Input too long" };
    expect(statusText({ state: "failure", outputs })).toBe("failure: Input too long");
    const cell = toExcelError(new SpellRunError("failure", outputs), { spellId: "s" });
    expect(cell.message).toContain(": Input too long");
    const layout = { inputColumns: [], outputNames: [] };
    const line = formatRows([{ values: {}, status: "failure", outputs }], layout, {
      format: "csv",
      csvGuard: false,
    });
    expect(line).toContain("Input too long");
    expect(line).not.toContain("generic");
  });
});
