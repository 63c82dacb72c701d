import fc from "fast-check";
import { columnName } from "../../playground/excel/a1.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { ModelUndo } from "../../playground/grid/modelUndo.js";

/**
 * Spills blocked by other spills, as Excel has them (Microsoft, "How to correct a #SPILL! error":
 * "Spill range isn't blank … Once the obstruction is cleared, the formula will spill as
 * intended"): a spill that another formula's spill was in the way of spills as soon as that spill
 * goes, whatever takes it away (the other formula cleared, edited, shrunk, deleted with its row
 * or column, or an undo or redo of any of those).
 */

/** TEST.GRID(rows, columns, id): a rows×columns table of "id:r,c", given at once (a SPELL.BULK). */
function gridRuntime(): CustomFunctionsRuntime {
  const runtime = new CustomFunctionsRuntime(
    [
      {
        id: "GRID",
        name: "GRID",
        options: { stream: true },
        parameters: [{ name: "rows" }, { name: "columns" }, { name: "id" }],
      },
    ],
    "TEST"
  );
  runtime.associate("GRID", (rows: unknown, columns: unknown, id: unknown, invocation: unknown) => {
    const table = Array.from({ length: Number(rows) }, (_, r) =>
      Array.from({ length: Number(columns) }, (_, c) => `${String(id)}:${r},${c}`)
    );
    (invocation as { setResult(value: unknown): void }).setResult(table);
  });
  return runtime;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The formula of id `id`, its size read from row `slot` of the sheet Sizes (shared by formulas). */
const gridFormula = (slot: number, id: string) =>
  `=TEST.GRID(Sizes!A${slot + 1},Sizes!B${slot + 1},"${id}")`;
const FORMULA = /^=TEST\.GRID\(Sizes!(A\d+),Sizes!(B\d+),"(f\d+)"\)$/;

/** The area the actions touch: anchors in A1:E5, spills of up to 3×3 reach G7. */
const SIZE = 5;
const SLOTS = 3;

type Action =
  | { kind: "enter"; row: number; column: number; slot: number }
  | { kind: "type"; row: number; column: number; value: string }
  | { kind: "erase"; row: number; column: number; rows: number; columns: number }
  | { kind: "clearFormula"; index: number }
  | { kind: "resize"; slot: number; rows: number; columns: number }
  | { kind: "delete"; axis: "row" | "column"; at: number }
  | { kind: "undo" }
  | { kind: "redo" };

const cell = { row: fc.nat(SIZE - 1), column: fc.nat(SIZE - 1) };
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("enter" as const), ...cell, slot: fc.nat(SLOTS - 1) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("type" as const),
      ...cell,
      value: fc.constantFrom("", "", "v"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("erase" as const),
      ...cell,
      rows: fc.integer({ min: 1, max: 3 }),
      columns: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("clearFormula" as const), index: fc.nat(9) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("resize" as const),
      slot: fc.nat(SLOTS - 1),
      rows: fc.integer({ min: 1, max: 3 }),
      columns: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("delete" as const),
      axis: fc.constantFrom("row" as const, "column" as const),
      at: fc.nat(SIZE - 1),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "undo" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "redo" as const }) }
);

/** Sizes of every slot, each 1–3 rows and columns. */
const sizes = fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })), {
  minLength: SLOTS,
  maxLength: SLOTS,
});

/**
 * The reference model, from scratch: each formula's would-be range (its size read from Sizes);
 * it shows #SPILL! exactly when a cell of that range other than its anchor holds something that is
 * not its own spilled value, else it shows its table whole; and every spilled value lies in the
 * range of a formula of its id that spills. Returns the first broken rule, or undefined.
 */
function brokenRule(workbook: MockWorkbook): string | undefined {
  const at = (row: number, column: number) =>
    workbook.cell("Sheet1", `${columnName(column)}${row + 1}`);
  const spilling = new Map<
    string,
    { row: number; column: number; rows: number; columns: number }[]
  >();
  const area = SIZE + 3;
  for (let row = 0; row < area; row++) {
    for (let column = 0; column < area; column++) {
      const anchor = at(row, column);
      const match = anchor.formula && FORMULA.exec(anchor.formula);
      if (!match) continue;
      const rows = Number(workbook.cell("Sizes", match[1]).value);
      const columns = Number(workbook.cell("Sizes", match[2]).value);
      const id = match[3];
      const name = `${columnName(column)}${row + 1} (${id}, ${rows}×${columns})`;
      const range = Array.from({ length: rows * columns }, (_, i) => ({
        r: Math.floor(i / columns),
        c: i % columns,
      }));
      const blocker = range.find(({ r, c }) => {
        if (r === 0 && c === 0) return false;
        const other = at(row + r, column + c);
        return (
          other.formula !== undefined ||
          (other.value !== "" && !String(other.value).startsWith(`${id}:`))
        );
      });
      if (anchor.value === "#SPILL!") {
        if (!blocker) return `${name} shows #SPILL! with nothing in its way`;
        continue;
      }
      if (blocker)
        return `${name} spills over ${columnName(column + blocker.c)}${row + blocker.r + 1}`;
      const wrong = range.find(({ r, c }) => at(row + r, column + c).value !== `${id}:${r},${c}`);
      if (wrong) return `${name} does not show its value at (${wrong.r},${wrong.c})`;
      spilling.set(id, [...(spilling.get(id) ?? []), { row, column, rows, columns }]);
    }
  }
  for (let row = 0; row < area; row++) {
    for (let column = 0; column < area; column++) {
      const value = String(at(row, column).value);
      const id = /^(f\d+):/.exec(value)?.[1];
      if (!id) continue;
      const owner = (spilling.get(id) ?? []).some(
        (s) =>
          row >= s.row &&
          row < s.row + s.rows &&
          column >= s.column &&
          column < s.column + s.columns
      );
      if (!owner) return `${columnName(column)}${row + 1} keeps ${value}, which no formula spills`;
    }
  }
  return undefined;
}

/** The formulas' anchors in the area, row by row. */
function formulaAnchors(workbook: MockWorkbook): { row: number; column: number }[] {
  const anchors: { row: number; column: number }[] = [];
  workbook.forEachCell((sheet, row, column, cell) => {
    if (sheet === "Sheet1" && cell.formula !== undefined) anchors.push({ row, column });
  });
  return anchors.sort((a, b) => a.row - b.row || a.column - b.column);
}

/** The model's area, for a failure's message. */
function picture(workbook: MockWorkbook): string {
  return workbook
    .values("Sheet1", "A1:I9")
    .map((line, r) =>
      line
        .map((value, c) => {
          const formula = workbook.cell("Sheet1", `${columnName(c)}${r + 1}`).formula;
          return (formula ? `=${FORMULA.exec(formula)?.[3] ?? formula}` : String(value)).padEnd(9);
        })
        .join("|")
    )
    .join("\n");
}

describe("Spills blocked by other spills (Excel: a blocked spill spills once the obstruction is cleared)", () => {
  it("should show #SPILL! exactly while something is in the way, after any sequence of edits, resizes, deletes, undos and redos", async () => {
    await fc.assert(
      fc.asyncProperty(
        sizes,
        fc.array(action, { minLength: 1, maxLength: 30 }),
        async (start, actions) => {
          const workbook = new MockWorkbook({ sheets: { Sheet1: [], Sizes: start } });
          const stop = new FormulaEngine(workbook, gridRuntime()).start();
          const undo = new ModelUndo(workbook);
          let ids = 0;
          const done: string[] = [];
          try {
            for (const next of actions) {
              if (next.kind === "enter") {
                const value = gridFormula(next.slot, `f${ids++}`);
                undo.type("Sheet1", [{ x: next.column, y: next.row, value }]);
              } else if (next.kind === "type") {
                undo.type("Sheet1", [{ x: next.column, y: next.row, value: next.value }]);
              } else if (next.kind === "erase") {
                // Delete over a selection, as the grid's Delete key.
                const { row: top, column: left, rows: rowCount, columns: columnCount } = next;
                undo.erase("Sheet1", { top, left, rowCount, columnCount });
              } else if (next.kind === "clearFormula") {
                // Delete on a formula's anchor (the n-th formula, row by row).
                const anchors = formulaAnchors(workbook);
                const anchor = anchors[next.index % Math.max(1, anchors.length)];
                if (anchor) undo.type("Sheet1", [{ x: anchor.column, y: anchor.row, value: "" }]);
              } else if (next.kind === "resize") {
                undo.type("Sizes", [
                  { x: 0, y: next.slot, value: String(next.rows) },
                  { x: 1, y: next.slot, value: String(next.columns) },
                ]);
              } else if (next.kind === "delete") {
                undo.structure("Sheet1", [
                  { sheet: "Sheet1", axis: next.axis, at: next.at, count: -1 },
                ]);
              } else if (next.kind === "undo") {
                undo.undo();
              } else {
                undo.redo();
              }
              await settled();
              done.push(JSON.stringify(next));
              const broken = brokenRule(workbook);
              if (broken) {
                throw new Error(
                  `${broken}\nafter ${done.join("\n")}\nsizes ${JSON.stringify(start)}\n${picture(workbook)}`
                );
              }
            }
          } finally {
            stop();
          }
        }
      ),
      { numRuns: 300 }
    );
  }, 60000);
});

describe("A spill blocked by another formula's spill", () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  /** B3 spills B3:D5 (slot 1: 3×3), C1 wants C1:C3 (slot 2: 3×1) and shows #SPILL!. */
  async function blockedSheet() {
    const workbook = new MockWorkbook({
      sheets: {
        Sheet1: [],
        Sizes: [
          [3, 3],
          [3, 1],
          [2, 2],
        ],
      },
    });
    stop = new FormulaEngine(workbook, gridRuntime()).start();
    const undo = new ModelUndo(workbook);
    undo.type("Sheet1", [{ x: 1, y: 2, value: gridFormula(0, "f0") }]);
    undo.type("Sheet1", [{ x: 2, y: 0, value: gridFormula(1, "f1") }]);
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(workbook.cell("Sheet1", "C3").value).toBe("f0:0,1");
    return { workbook, undo };
  }
  const c1Spills = (workbook: MockWorkbook) =>
    expect(workbook.values("Sheet1", "C1:C3")).toEqual([["f1:0,0"], ["f1:1,0"], ["f1:2,0"]]);

  it("should spill once the formula in its way is cleared, and be blocked again when the clear is undone", async () => {
    const { workbook, undo } = await blockedSheet();
    undo.type("Sheet1", [{ x: 1, y: 2, value: "" }]);
    await settled();
    c1Spills(workbook);
    expect(workbook.values("Sheet1", "B3:D5").flat().join("")).toBe("f1:2,0");
    undo.undo(); // B3 is back: C1's spill is now in its way (the later entry gives way)
    await settled();
    expect(workbook.cell("Sheet1", "B3").value).toBe("#SPILL!");
    c1Spills(workbook);
    expect(brokenRule(workbook)).toBeUndefined();
  });

  it("should spill once the spill in its way gets fewer rows, and be blocked again when that is undone", async () => {
    const { workbook, undo } = await blockedSheet();
    undo.type("Sheet1", [{ x: 1, y: 2, value: "" }]);
    undo.type("Sizes", [{ x: 0, y: 2, value: "1" }]);
    undo.type("Sheet1", [{ x: 1, y: 1, value: gridFormula(2, "f2") }]); // B2 wants B2:C2
    await settled();
    c1Spills(workbook);
    expect(workbook.cell("Sheet1", "B2").value).toBe("#SPILL!");
    undo.type("Sizes", [{ x: 0, y: 1, value: "1" }]); // C1's result: 1 row
    await settled();
    expect(workbook.values("Sheet1", "B1:C3")).toEqual([
      ["", "f1:0,0"],
      ["f2:0,0", "f2:0,1"],
      ["", ""],
    ]);
    undo.undo(); // 3 rows again: C2 is B2's now, C1 is blocked
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(workbook.values("Sheet1", "B2:C2")).toEqual([["f2:0,0", "f2:0,1"]]);
    undo.redo();
    await settled();
    expect(workbook.values("Sheet1", "B1:C2")).toEqual([
      ["", "f1:0,0"],
      ["f2:0,0", "f2:0,1"],
    ]);
    expect(brokenRule(workbook)).toBeUndefined();
  });

  it("should spill once the row of the formula in its way is deleted, and after a redo of the delete", async () => {
    const { workbook, undo } = await blockedSheet();
    undo.structure("Sheet1", [{ sheet: "Sheet1", axis: "row", at: 2, count: -1 }]);
    await settled();
    c1Spills(workbook);
    undo.undo(); // row 3 is back: B3 and C1 spill again, the earlier entered (B3) first
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(workbook.cell("Sheet1", "C3").value).toBe("f0:0,1");
    undo.redo();
    await settled();
    c1Spills(workbook);
  });

  it("should spill once the column of the formula in its way is deleted", async () => {
    const { workbook, undo } = await blockedSheet();
    // C1 moves to B1 and wants B1:B3; B3 (the blocker's anchor) goes with column B.
    undo.structure("Sheet1", [{ sheet: "Sheet1", axis: "column", at: 1, count: -1 }]);
    await settled();
    expect(workbook.values("Sheet1", "B1:B3")).toEqual([["f1:0,0"], ["f1:1,0"], ["f1:2,0"]]);
  });

  it("should give freed cells two blocked formulas want to the one entered first, the other staying #SPILL!", async () => {
    const { workbook, undo } = await blockedSheet();
    undo.type("Sheet1", [{ x: 3, y: 1, value: gridFormula(2, "f2") }]); // D2 wants D2:E3
    await settled();
    expect(workbook.cell("Sheet1", "D2").value).toBe("#SPILL!");
    undo.type("Sheet1", [{ x: 1, y: 2, value: "" }]);
    await settled();
    c1Spills(workbook); // C1 entered before D2; D2:E3 is clear of C1:C3, so D2 spills too
    expect(workbook.values("Sheet1", "D2:E3")).toEqual([
      ["f2:0,0", "f2:0,1"],
      ["f2:1,0", "f2:1,1"],
    ]);
    undo.type("Sheet1", [{ x: 2, y: 0, value: "" }]);
    undo.type("Sheet1", [{ x: 3, y: 1, value: "" }]);
    // Both blocked by B3 again, and wanting C2 both: B3 cleared, the earlier (C1) takes C2.
    undo.type("Sheet1", [{ x: 1, y: 2, value: gridFormula(0, "f3") }]);
    undo.type("Sheet1", [{ x: 2, y: 0, value: gridFormula(1, "f4") }]);
    undo.type("Sheet1", [{ x: 1, y: 1, value: gridFormula(2, "f5") }]); // B2 wants B2:C3
    await settled();
    expect(workbook.cell("Sheet1", "C1").value).toBe("#SPILL!");
    expect(workbook.cell("Sheet1", "B2").value).toBe("#SPILL!");
    undo.type("Sheet1", [{ x: 1, y: 2, value: "" }]);
    await settled();
    expect(workbook.values("Sheet1", "C1:C3")).toEqual([["f4:0,0"], ["f4:1,0"], ["f4:2,0"]]);
    expect(workbook.cell("Sheet1", "B2").value).toBe("#SPILL!");
    expect(brokenRule(workbook)).toBeUndefined();
  });
});
