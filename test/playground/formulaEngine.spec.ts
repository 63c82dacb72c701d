import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import {
  CustomFunctionError,
  CustomFunctionsRuntime,
} from "../../playground/functions/customFunctionsRuntime.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";

type Invocation = { address?: string; onCanceled?: () => void; setResult?: (v: unknown) => void };

/** A runtime with TEST.LATER (resolves when the spec says) and TEST.STREAM (streams). */
function testRuntime() {
  const runtime = new CustomFunctionsRuntime(
    [
      { id: "LATER", name: "LATER", options: { cancelable: true }, parameters: [{ name: "x" }] },
      {
        id: "STREAM",
        name: "STREAM",
        options: { stream: true },
        parameters: [{ name: "x", dimensionality: "matrix" }],
      },
    ],
    "TEST"
  );
  const calls: { x: unknown; invocation: Invocation; resolve: (value: unknown) => void }[] = [];
  runtime.associate("LATER", (x: unknown, invocation: unknown) => {
    return new Promise((resolve) => {
      const call = { x, invocation: invocation as Invocation, resolve };
      call.invocation.onCanceled = jasmine.createSpy("onCanceled");
      calls.push(call);
    });
  });
  const streams: { x: unknown; invocation: Invocation }[] = [];
  runtime.associate("STREAM", (x: unknown, invocation: unknown) => {
    const call = { x, invocation: invocation as Invocation };
    call.invocation.onCanceled = jasmine.createSpy("onCanceled");
    streams.push(call);
  });
  return { runtime, calls, streams };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("FormulaEngine (the playground's recalculation)", () => {
  let workbook: MockWorkbook;
  let stop: () => void = () => undefined;

  afterEach(() => stop());

  it("should evaluate references, ranges and nesting, and recalculate what reads an edited cell", () => {
    workbook = new MockWorkbook({ sheets: { Sheet1: [[1, 2, 3]] } });
    stop = new FormulaEngine(workbook, testRuntime().runtime).start();
    workbook.setValues("Sheet1", "A2", [["=SUM(A1:C1)*2", '=LOWER("X")&A2', "=NOSUCHFUNCTION(1)"]]);
    expect(workbook.cell("Sheet1", "A2").value).toBe(12);
    expect(workbook.cell("Sheet1", "B2").value).toBe("x12");
    expect(workbook.cell("Sheet1", "C2").value).toBe("#NAME?");
    workbook.setValues("Sheet1", "C1", [[10]]);
    expect(workbook.cell("Sheet1", "A2").value).toBe(26);
    expect(workbook.cell("Sheet1", "B2").value).toBe("x26");
  });

  it("should show #BUSY! until a call's value arrives, and keep the call while its arguments stay the same", async () => {
    const { runtime, calls } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["a", "b"]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "A2", [["=TEST.LATER(A1)", "=TEST.LATER(B1)"]]);
    expect(workbook.cell("Sheet1", "A2").value).toBe("#BUSY!");
    expect(calls.map((call) => [call.x, call.invocation.address])).toEqual([
      ["a", "Sheet1!A2"],
      ["b", "Sheet1!B2"],
    ]);
    calls[0].resolve([["A!"]]);
    await settled();
    expect(workbook.cell("Sheet1", "A2").value).toBe("A!");
    expect(workbook.cell("Sheet1", "B2").value).toBe("#BUSY!");

    // B1 changes: only B2's call is given up and made again.
    workbook.setValues("Sheet1", "B1", [["c"]]);
    expect(calls.length).toBe(3);
    expect(calls[1].invocation.onCanceled).toHaveBeenCalledTimes(1);
    expect(calls[0].invocation.onCanceled).not.toHaveBeenCalled();
    expect(calls[2].x).toBe("c");
  });

  it("should keep a failed call's message for the cell's tooltip", async () => {
    const { runtime, calls } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    const engine = new FormulaEngine(workbook, runtime);
    stop = engine.start();
    workbook.setValues("Sheet1", "B1", [["=TEST.LATER(A1)"]]);
    calls[0].resolve(Promise.reject(new CustomFunctionError("#N/A", "The run failed: no credit")));
    await settled();
    expect(workbook.cell("Sheet1", "B1").value).toBe("#N/A");
    expect(engine.messageAt("Sheet1", "B1")).toBe("The run failed: no credit");
    workbook.setValues("Sheet1", "A1", [["b"]]);
    calls[1].resolve("fine");
    await settled();
    expect(engine.messageAt("Sheet1", "B1")).toBeUndefined();
  });

  it("should complete a formula with the volatile values of the calculation that made its call", async () => {
    const { runtime, calls, streams } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "B1", [
      ['=TEST.LATER("r " & RAND() & A1)', '=TEST.LATER("n " & NOW()) & "|" & RAND()'],
    ]);
    workbook.setValues("Sheet1", "D1", [['=TEST.STREAM(RANDBETWEEN(1, 1000000000) & "")']]);
    expect(calls.length).toBe(2);
    const given = String(calls[0].x);
    // Each value arriving (an answer of its own each time) completes the formula: no new call.
    for (let round = 0; round < 3; round++) {
      calls.forEach((call) => call.resolve(`done ${String(call.x)}`));
      streams[0].invocation.setResult?.(`part ${round}`);
      await settled();
    }
    expect(calls.length).toBe(2);
    expect(streams.length).toBe(1);
    expect(workbook.cell("Sheet1", "B1").value).toBe(`done ${given}`);
    expect(String(workbook.cell("Sheet1", "C1").value)).toMatch(/^done n \d+(\.\d+)?\|0\.\d+/);
    expect(workbook.cell("Sheet1", "D1").value).toBe("part 2");
    // A new calculation (A1 edited) calls again, with a new RAND.
    workbook.setValues("Sheet1", "A1", [["b"]]);
    expect(calls.length).toBe(3);
    expect(calls[2].x).not.toBe(given);
    expect(String(calls[2].x)).toMatch(/b$/);
  });

  it("should not loop when a call with RAND in its arguments answers at once", async () => {
    const runtime = new CustomFunctionsRuntime(
      [{ id: "NOW_", name: "REFUSE", parameters: [{ name: "x" }] }],
      "TEST"
    );
    const refuse = jasmine.createSpy("REFUSE").and.callFake(() => Promise.resolve("#refused"));
    runtime.associate("NOW_", refuse);
    workbook = new MockWorkbook({ sheets: { Sheet1: [[""]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "A1", [['=TEST.REFUSE("r " & RAND())']]);
    await settled();
    await settled();
    expect(refuse).toHaveBeenCalledTimes(1);
    expect(workbook.cell("Sheet1", "A1").value).toBe("#refused");
  });

  it("should cancel a formula's calls when the formula is deleted", () => {
    const { runtime, calls } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "B1", [["=TEST.LATER(A1)"]]);
    workbook.setValues("Sheet1", "B1", [[""]]);
    expect(calls[0].invocation.onCanceled).toHaveBeenCalledTimes(1);
    expect(workbook.cell("Sheet1", "B1").value).toBe("");
  });

  it("should spill a streamed array, empty what it no longer covers, and show #SPILL! when cells are in the way", async () => {
    const { runtime, streams } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["x"]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "B1", [["=TEST.STREAM(A1)"]]);
    expect(streams[0].x).toEqual([["x"]]);
    streams[0].invocation.setResult?.([["h"], [1], [2]]);
    await settled();
    expect(workbook.values("Sheet1", "B1:B3")).toEqual([["h"], [1], [2]]);
    streams[0].invocation.setResult?.([["h"], [1]]);
    await settled();
    expect(workbook.values("Sheet1", "B1:B3")).toEqual([["h"], [1], [""]]);

    workbook.setValues("Sheet1", "C2", [["mine"]]);
    workbook.setValues("Sheet1", "C1", [["=TEST.STREAM(A1)"]]);
    streams[1].invocation.setResult?.([["h"], [1]]);
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(workbook.cell("Sheet1", "C2").value).toBe("mine");
  });

  it("should let formulas read a custom function's result and recalculate when it arrives", async () => {
    const { runtime, calls } = testRuntime();
    workbook = new MockWorkbook({ sheets: { Sheet1: [["a"]] } });
    stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "B1", [["=TEST.LATER(A1)", '=LEN(B1)&"!"']]);
    calls[0].resolve("four");
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("4!");
  });
});
