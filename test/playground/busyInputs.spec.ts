import fc from "fast-check";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import {
  CustomFunctionError,
  CustomFunctionsRuntime,
} from "../../playground/functions/customFunctionsRuntime.js";
import type { CustomFunctionMetadata } from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

/** A call of TEST.LATER: its argument, its cell, and how the spec answers it. */
interface LaterCall {
  x: unknown;
  address: string;
  answer: (value: unknown) => void;
}

/** A runtime whose TEST.LATER answers when the spec says, as SPELL.RUN answers when a run ends. */
function laterRuntime(type: string | undefined, allowErrorForDataTypeAny = false) {
  const metadata: CustomFunctionMetadata[] = [
    {
      id: "LATER",
      name: "LATER",
      options: { cancelable: true },
      parameters: [{ name: "x", type }],
    },
  ];
  const runtime = new CustomFunctionsRuntime(metadata, "TEST", allowErrorForDataTypeAny);
  const calls: LaterCall[] = [];
  runtime.associate("LATER", (x: unknown, invocation: unknown) => {
    const address = (invocation as { address: string }).address;
    return new Promise((resolve) => calls.push({ x, address, answer: resolve }));
  });
  return { runtime, calls };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const isError = (value: unknown) => typeof value === "string" && value.startsWith("#");

/** A person's step: A1 edited, or the oldest unanswered call of a cell answered. */
type Step =
  | { kind: "edit"; value: string }
  | { kind: "answer"; cell: "A2" | "B2"; value: string | CustomFunctionError };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("edit" as const),
    value: fc.constantFrom("a", "b", "=NA()", "=1/0"),
  }),
  fc.record({
    kind: fc.constant("answer" as const),
    cell: fc.constantFrom("A2" as const, "B2" as const),
    value: fc.constantFrom<string | CustomFunctionError>(
      "x",
      "y",
      new CustomFunctionError("#N/A", "Spell failed")
    ),
  })
);

describe("A custom function reading a cell still being calculated (Excel waits for it)", () => {
  it("should wait while its input is #BUSY!, never send an error, and run once when the value arrives (generated)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { runtime, calls } = laterRuntime(undefined);
        const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
        const stop = new FormulaEngine(workbook, runtime).start();
        try {
          workbook.setValues("Sheet1", "A2", [["=TEST.LATER(A1)"]]);
          workbook.setValues("Sheet1", "B2", [["=TEST.LATER(A2)"]]);
          const answered = new Set<LaterCall>();
          for (const next of steps) {
            const before = calls.filter((call) => call.address === "Sheet1!B2").length;
            if (next.kind === "edit") {
              workbook.setValues("Sheet1", "A1", [[next.value]]);
            } else {
              const open = calls.find(
                (call) => call.address === `Sheet1!${next.cell}` && !answered.has(call)
              );
              open?.answer(next.value);
              if (open) answered.add(open);
            }
            await settled();
            const input = workbook.cell("Sheet1", "A2").value;
            const shown = workbook.cell("Sheet1", "B2").value;
            const made = calls.filter((call) => call.address === "Sheet1!B2");
            // Money: no run with an error as its input; at most one new run per step.
            if (calls.some((call) => typeof call.x !== "string")) return false;
            if (made.length - before > 1) return false;
            if (input === "#BUSY!" && (shown !== "#BUSY!" || made.length > before)) return false;
            if (isError(input) && input !== "#BUSY!" && shown !== input) return false;
            // A value arrived: B2 was called with it (once, above), or had been already.
            if (!isError(input) && made[made.length - 1]?.x !== input) return false;
          }
          return true;
        } finally {
          stop();
        }
      }),
      { numRuns: 150 }
    );
  });

  it("should show #BUSY! beside a running input and call once when it answers, as in the trial", async () => {
    const { runtime, calls } = laterRuntime(undefined);
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["great product"]] } });
    const stop = new FormulaEngine(workbook, runtime).start();
    try {
      workbook.setValues("Sheet1", "C1", [["=TEST.LATER(A1)"]]);
      workbook.setValues("Sheet1", "D1", [["=TEST.LATER(C1)"]]);
      expect(workbook.values("Sheet1", "C1:D1")).toEqual([["#BUSY!", "#BUSY!"]]);
      expect(calls.map((call) => call.address)).toEqual(["Sheet1!C1"]);
      calls[0].answer("positive");
      await settled();
      expect(calls.map((call) => [call.address, call.x])).toEqual([
        ["Sheet1!C1", "great product"],
        ["Sheet1!D1", "positive"],
      ]);
      expect(workbook.cell("Sheet1", "D1").value).toBe("#BUSY!");
      calls[1].answer("done");
      await settled();
      expect(workbook.cell("Sheet1", "D1").value).toBe("done");
      expect(calls.length).toBe(2);
    } finally {
      stop();
    }
  });

  it("should pass an error only to a parameter of type any with allowErrorForDataTypeAny, as functions.json says", async () => {
    for (const [type, allow, passed] of [
      [undefined, false, false],
      ["any", true, true],
      ["string", true, false],
    ] as const) {
      const { runtime, calls } = laterRuntime(type, allow);
      const workbook = new MockWorkbook({ sheets: { Sheet1: [["=NA()"]] } });
      const stop = new FormulaEngine(workbook, runtime).start();
      try {
        workbook.setValues("Sheet1", "B1", [["=TEST.LATER(A1)"]]);
        await settled();
        expect(calls.length).toBe(passed ? 1 : 0);
        if (passed) expect((calls[0].x as CustomFunctionError).code).toBe("#N/A");
        else expect(workbook.cell("Sheet1", "B1").value).toBe("#N/A");
      } finally {
        stop();
      }
    }
  });
});
