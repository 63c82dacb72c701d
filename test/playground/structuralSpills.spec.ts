import fc from "fast-check";
import { adjustReferences } from "../../playground/excel/adjustReferences.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";

/**
 * Inserts and deletes of rows and columns that cross a spill or its anchor, as Excel does them.
 *
 * Microsoft, "Dynamic array formulas and spilled array behavior": a formula returning several
 * values spills them from its anchor cell, and only the anchor holds the formula; the spill range
 * is computed from it. So a structural edit never leaves a spilled value behind as a plain value:
 * the anchor (moved, its references adjusted) spills again, at its full size.
 * Microsoft, "How to correct a #REF! error": "The #REF! error shows when a formula refers to a cell
 * that's not valid. This happens most often when cells that were referenced by formulas get
 * deleted"; `=SUM(B2,C2,D2)` reads `=SUM(B2,#REF!,C2)` after column C is deleted.
 */

/** TEST.TABLE(x): a 3-wide table of x's rows (a SPELL.BULK with three outputs), given at once. */
function tableRuntime() {
  const runtime = new CustomFunctionsRuntime(
    [
      {
        id: "TABLE",
        name: "TABLE",
        options: { stream: true },
        parameters: [{ name: "x", dimensionality: "matrix" }],
      },
    ],
    "TEST"
  );
  const calls: unknown[] = [];
  runtime.associate("TABLE", (x: unknown, invocation: unknown) => {
    calls.push(x);
    const rows = (x as unknown[][]).map((row) => [`${String(row[0])}.a`, `${String(row[0])}.b`, 1]);
    (invocation as { setResult(value: unknown): void }).setResult(rows);
  });
  return { runtime, calls };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A sheet: inputs in A1:A3, TEST.TABLE spilling C1:E3, a person's note in G2. */
async function spilledSheet() {
  const workbook = new MockWorkbook({ sheets: { Sheet1: [["x"], ["y"], ["z"]] } });
  const { runtime, calls } = tableRuntime();
  const stop = new FormulaEngine(workbook, runtime).start();
  workbook.setValues("Sheet1", "G2", [["note"]]);
  workbook.setValues("Sheet1", "C1", [["=TEST.TABLE(A1:A3)"]]);
  await settled();
  return { workbook, calls, stop };
}

/** Every non-empty cell, as "A1=value". */
function cellsOf(workbook: MockWorkbook): string[] {
  return workbook
    .allCells()
    .map(({ address, cell }) => `${address}=${String(cell.formula ?? cell.value)}`)
    .sort();
}

describe("Structural edits across a spill (Excel: the spill is computed again from its anchor)", () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  it("should spill again at full width when a column under the spill is deleted, leaving no plain values", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    expect(sheet.workbook.values("Sheet1", "C1:E1")).toEqual([["x.a", "x.b", 1]]);
    sheet.workbook.deleteColumns("Sheet1", 3); // column D, inside the spill
    await settled();
    expect(cellsOf(sheet.workbook)).toEqual(
      [
        "A1=x",
        "A2=y",
        "A3=z",
        "C1==TEST.TABLE(A1:A3)",
        "D1=x.b",
        "D2=y.b",
        "D3=z.b",
        "C2=y.a",
        "C3=z.a",
        "E1=1",
        "E2=1",
        "E3=1",
        "F2=note", // the note moved left with its column
      ].sort()
    );
    // The same arguments: the call was kept, nothing ran again.
    expect(sheet.calls.length).toBe(1);
  });

  it("should show #SPILL! when the delete moves a person's cell into the spill's way, never overwriting it", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    sheet.workbook.deleteColumns("Sheet1", 5); // column F: G (the note) moves to F
    sheet.workbook.deleteColumns("Sheet1", 4); // column E, inside the spill: the note moves to E
    await settled();
    expect(sheet.workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(cellsOf(sheet.workbook)).toEqual(
      ["A1=x", "A2=y", "A3=z", "C1==TEST.TABLE(A1:A3)", "E2=note"].sort()
    );
  });

  it("should move a spill whole when a column left of it is deleted, not show #SPILL! over its own values", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    sheet.workbook.deleteColumns("Sheet1", 1); // column B: the anchor moves from C to B
    await settled();
    expect(sheet.workbook.cell("Sheet1", "B1").formula).toBe("=TEST.TABLE(A1:A3)");
    expect(sheet.workbook.values("Sheet1", "B1:E3")).toEqual([
      ["x.a", "x.b", 1, ""],
      ["y.a", "y.b", 1, ""],
      ["z.a", "z.b", 1, ""],
    ]);
    expect(sheet.workbook.cell("Sheet1", "F2").value).toBe("note");
    expect(sheet.calls.length).toBe(1);
  });

  it("should leave nothing of a spill whose anchor's column is deleted", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    sheet.workbook.deleteColumns("Sheet1", 2); // column C: the anchor
    await settled();
    expect(cellsOf(sheet.workbook)).toEqual(["A1=x", "A2=y", "A3=z", "F2=note"].sort());
  });

  it("should spill again from the anchor's new place when columns or rows are inserted across it", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    sheet.workbook.insertColumns("Sheet1", 3, 2); // before D, inside the spill
    sheet.workbook.insertRows("Sheet1", 1); // before row 2: inside the inputs and the spill
    await settled();
    expect(sheet.workbook.cell("Sheet1", "C1").formula).toBe("=TEST.TABLE(A1:A4)");
    expect(sheet.workbook.values("Sheet1", "C1:E4")).toEqual([
      ["x.a", "x.b", 1],
      [".a", ".b", 1], // the inserted row is empty: a matrix argument passes it as ""
      ["y.a", "y.b", 1],
      ["z.a", "z.b", 1],
    ]);
    expect(
      sheet.workbook
        .values("Sheet1", "F1:I4")
        .flat()
        .filter((v) => v !== "")
    ).toEqual(["note"]);
    expect(sheet.workbook.cell("Sheet1", "I3").value).toBe("note");
  });

  it("should give #REF! where Excel gives it: a formula reading a deleted cell", async () => {
    const sheet = await spilledSheet();
    stop = sheet.stop;
    sheet.workbook.setValues("Sheet1", "H1", [["=A1&C2", "=SUM(E1:E3)", "=A2&A3"]]);
    sheet.workbook.deleteRows("Sheet1", 1); // row 2: A2 and C2 (spilled) go
    await settled();
    // C2 was deleted (that it held a spilled value does not matter).
    expect(sheet.workbook.cell("Sheet1", "H1").formula).toBe("=A1&#REF!");
    expect(sheet.workbook.cell("Sheet1", "I1").formula).toBe("=SUM(E1:E2)");
    expect(sheet.workbook.cell("Sheet1", "J1").formula).toBe("=#REF!&A2");
    expect(sheet.workbook.cell("Sheet1", "J1").value).toBe("#REF!");
    expect(sheet.workbook.values("Sheet1", "C1:E3")).toEqual([
      ["x.a", "x.b", 1],
      ["z.a", "z.b", 1],
      ["", "", ""],
    ]);
    expect(
      adjustReferences("=SUM(B2,C2,D2)", "Sheet1", {
        sheet: "Sheet1",
        axis: "column",
        at: 2,
        count: -1,
      })
    ).toBe("=SUM(B2,#REF!,C2)");
  });

  it("should keep every person's value and leave no stray spilled value over any sequence of inserts and deletes (generated)", async () => {
    const edit = fc.record({
      axis: fc.constantFrom("row" as const, "column" as const),
      at: fc.integer({ min: 0, max: 7 }),
      count: fc.integer({ min: -2, max: 2 }).filter((count) => count !== 0),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 6 }), async (edits) => {
        const sheet = await spilledSheet();
        try {
          // Where each of the person's values should be: moved by the same edits, gone when deleted.
          let mine = new Map<string, { row: number; column: number }>([
            ["x", { row: 0, column: 0 }],
            ["y", { row: 1, column: 0 }],
            ["z", { row: 2, column: 0 }],
            ["note", { row: 1, column: 6 }],
          ]);
          for (const { axis, at, count } of edits) {
            if (count > 0) {
              if (axis === "row") sheet.workbook.insertRows("Sheet1", at, count);
              else sheet.workbook.insertColumns("Sheet1", at, count);
            } else if (axis === "row") sheet.workbook.deleteRows("Sheet1", at, -count);
            else sheet.workbook.deleteColumns("Sheet1", at, -count);
            mine = moved(mine, axis, at, count);
            await settled();
            checkSheet(sheet.workbook, mine);
          }
        } finally {
          sheet.stop();
        }
      }),
      { numRuns: 60 }
    );
  });
});

function moved(
  places: Map<string, { row: number; column: number }>,
  axis: "row" | "column",
  at: number,
  count: number
): Map<string, { row: number; column: number }> {
  const next = new Map<string, { row: number; column: number }>();
  for (const [value, place] of places) {
    const line = place[axis];
    if (count < 0 && line >= at && line < at - count) continue;
    next.set(value, { ...place, [axis]: line >= at ? line + count : line });
  }
  return next;
}

/**
 * After every edit: each person's value is where it should be; every other non-empty cell is a
 * formula or a value inside the block its anchor spills now (nothing spilled is left over).
 */
function checkSheet(
  workbook: MockWorkbook,
  mine: Map<string, { row: number; column: number }>
): void {
  const cells = workbook.allCells();
  const anchor = cells.find(({ cell }) => cell.formula !== undefined);
  const at = (address: string) => {
    const match = /^([A-Z]+)(\d+)$/.exec(address) as RegExpExecArray;
    return { row: Number(match[2]) - 1, column: match[1].charCodeAt(0) - 65 };
  };
  const values = new Map<string, MockCellValue>();
  for (const { address, cell } of cells) values.set(address, cell.value);
  for (const [value, place] of mine) {
    const address = `${String.fromCharCode(65 + place.column)}${place.row + 1}`;
    expect(values.get(address)).withContext(`${value} at ${address}`).toBe(value);
  }
  const theirs = new Set(
    [...mine.values()].map((place) => `${String.fromCharCode(65 + place.column)}${place.row + 1}`)
  );
  for (const { address, cell } of cells) {
    if (theirs.has(address) || cell.formula !== undefined) continue;
    // A spilled value: to the right of (or below) the anchor, within its 3 columns.
    expect(anchor)
      .withContext(`${address}=${String(cell.value)} with no anchor`)
      .toBeDefined();
    if (!anchor) continue;
    const from = at(anchor.address);
    const here = at(address);
    const inside =
      here.row >= from.row && here.column >= from.column && here.column < from.column + 3;
    expect(inside)
      .withContext(`${address}=${String(cell.value)} outside the spill`)
      .toBeTrue();
    expect(String(cell.value)).toMatch(/^(.*\.[ab]|1)$/);
  }
}
