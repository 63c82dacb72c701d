import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";

/** Saves the document settings through Office, as the add-in does. */
function saveSettings(): Promise<Office.AsyncResult<void>> {
  return new Promise((resolve) => Office.context.document.settings.saveAsync(resolve));
}

/**
 * A workbook's snapshot is what a saved file keeps: reopened from it (as the playground does after
 * a reload), the add-in finds its cells, sheets, names, spills and the document settings it saved,
 * but not the settings it set without saving.
 */
describe("MockWorkbook.snapshot (the playground's saved document)", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should reopen with the cells, sheets, names and saved settings, not the unsaved ones", async () => {
    const workbook = new MockWorkbook({ sheets: { Reviews: [["text"], ["hello"]] } });
    uninstall = workbook.install();
    workbook.setValues("Reviews", "B2", [["=LEN(A2)"]]);
    workbook.setSpill("Reviews", "D1", '=SPELL.BULK("x", A1:A2)', [["a"], ["b"]]);
    workbook.hideRows("Reviews", [5]);
    await Excel.run(async (context) => {
      const record = context.workbook.worksheets.add("spellrun_jobs");
      record.visibility = Excel.SheetVisibility.veryHidden;
      record.getRange("A1").values = [["job 1"]];
      const text = context.workbook.worksheets.getItem("Reviews").getRange("C2");
      text.numberFormat = [["@"]];
      text.values = [["=not a formula"]];
      context.workbook.names.add(
        "inputs",
        context.workbook.worksheets.getItem("Reviews").getRange("A1:A2")
      );
      await context.sync();
    });
    Office.context.document.settings.set("spellrun.documentId", "doc-1234-abcd");
    expect((await saveSettings()).status).toBe(Office.AsyncResultStatus.Succeeded);
    Office.context.document.settings.set("unsaved", true);

    const snapshot = JSON.parse(JSON.stringify(workbook.snapshot())) as ReturnType<
      MockWorkbook["snapshot"]
    >;
    uninstall();
    const reopened = MockWorkbook.fromSnapshot(snapshot);
    uninstall = reopened.install();
    expect(reopened.sheetNames()).toEqual(["Reviews", "spellrun_jobs"]);
    expect(reopened.sheetVisibility("spellrun_jobs")).toBe("VeryHidden");
    expect(reopened.values("spellrun_jobs", "A1")).toEqual([["job 1"]]);
    expect(reopened.cell("Reviews", "B2")).toEqual({
      value: "#NAME?", // no formula engine here
      formula: "=LEN(A2)",
      numberFormat: "General",
    });
    expect(reopened.cell("Reviews", "C2")).toEqual({ value: "=not a formula", numberFormat: "@" });
    expect(reopened.values("Reviews", "D1:D2")).toEqual([["a"], ["b"]]);
    expect(reopened.nameAddress("inputs")).toBe("Reviews!A1:A2");
    expect(Office.context.document.settings.get("spellrun.documentId")).toBe("doc-1234-abcd");
    expect(Office.context.document.settings.get("unsaved")).toBeNull();
    // The spill is the anchor's: writing the anchor clears it, as before the reload.
    reopened.setValues("Reviews", "D1", [["typed"]]);
    expect(reopened.values("Reviews", "D1:D2")).toEqual([["typed"], [""]]);
    // The sheets keep their ids (Excel's stay the same in a saved file).
    expect(reopened.snapshot().sheets.map((sheet) => sheet.id)).toEqual(
      workbook.snapshot().sheets.map((sheet) => sheet.id)
    );
  });

  it("should tell when the document changed: cells, structural edits, add-in writes, saved settings", async () => {
    const workbook = new MockWorkbook();
    uninstall = workbook.install();
    const changed = jasmine.createSpy("onDocumentChanged");
    workbook.onDocumentChanged = changed;
    workbook.setValues("Sheet1", "A1", [["x"]]);
    workbook.insertRows("Sheet1", 0);
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("B1").values = [["y"]];
      await context.sync();
    });
    expect(changed).toHaveBeenCalledTimes(3);
    Office.context.document.settings.set("a", 1);
    expect(changed).toHaveBeenCalledTimes(3); // set alone is not saved
    await saveSettings();
    expect(changed).toHaveBeenCalledTimes(4);
  });

  it("should hold a 10,000-row sheet in a snapshot of a few megabytes, taken and reopened in well under a second", () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [
      `Review number ${i}: arrived on time, works as described, would buy again.`,
      i % 2 === 0 ? "positive" : "negative",
      i,
    ]);
    const workbook = new MockWorkbook({ sheets: { Reviews: rows } });
    const started = performance.now();
    const snapshot = workbook.snapshot();
    const bytes = new TextEncoder().encode(JSON.stringify(snapshot)).length;
    const reopened = MockWorkbook.fromSnapshot(snapshot);
    const elapsedMs = performance.now() - started;
    expect(reopened.lastRow("Reviews")).toBe(9_999);
    expect(reopened.values("Reviews", "A10000:C10000")).toEqual([rows[9_999]]);
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it("should spill a reopened document's array formula again over its own cells, not show #SPILL!", async () => {
    const runtime = new CustomFunctionsRuntime(
      [
        {
          id: "ROWS",
          name: "ROWS",
          options: { stream: true },
          parameters: [{ name: "x", dimensionality: "matrix" }],
        },
      ],
      "TEST"
    );
    runtime.associate("ROWS", (x: unknown, invocation: unknown) => {
      const rows = (x as unknown[][]).map((row) => [`${String(row[0])}!`]);
      (invocation as { setResult(value: unknown): void }).setResult(rows);
    });
    const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"], ["b"], ["c"]] } });
    let stop = new FormulaEngine(workbook, runtime).start();
    workbook.setValues("Sheet1", "B1", [["=TEST.ROWS(A1:A3)"]]);
    await settled();
    expect(workbook.values("Sheet1", "B1:B3")).toEqual([["a!"], ["b!"], ["c!"]]);
    stop();

    const reopened = MockWorkbook.fromSnapshot(workbook.snapshot());
    stop = new FormulaEngine(reopened, runtime).start();
    await settled();
    expect(reopened.values("Sheet1", "B1:B3")).toEqual([["a!"], ["b!"], ["c!"]]);
    stop();
  });
});
