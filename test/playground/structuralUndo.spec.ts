import fc from "fast-check";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { WorkbookSnapshot } from "../../playground/excel/workbookSnapshot.js";
import type { StructuralEdit } from "../../playground/excel/structuralChange.js";
import { FormulaEngine } from "../../playground/formulas/formulaEngine.js";
import { shiftRowReferences } from "../../playground/formulas/shiftRowReferences.js";
import { CustomFunctionsRuntime } from "../../playground/functions/customFunctionsRuntime.js";
import { ModelUndo } from "../../playground/grid/modelUndo.js";

/**
 * Undo and redo of inserted and deleted rows and columns and of sorts, in the model.
 *
 * Microsoft, "Undo, redo, or repeat an action": "You can undo, redo, or repeat many actions in
 * Microsoft Excel"; inserting and deleting rows and columns and sorting are undone and redone
 * like typing, and the formulas' references move back with the cells. A custom function's result
 * is not undone: it comes back when its inputs do (the formula is evaluated again).
 */

/**
 * TEST.TABLE(x): a 3-wide table of x's rows, given at once (a SPELL.BULK's spill); TEST.SLOW(x):
 * a result given when the spec says (a run still going).
 */
function testRuntime() {
  const runtime = new CustomFunctionsRuntime(
    [
      {
        id: "TABLE",
        name: "TABLE",
        options: { stream: true },
        parameters: [{ name: "x", dimensionality: "matrix" }],
      },
      { id: "SLOW", name: "SLOW", options: { stream: true }, parameters: [{ name: "x" }] },
    ],
    "TEST"
  );
  runtime.associate("TABLE", (x: unknown, invocation: unknown) => {
    const rows = (x as unknown[][]).map((row) => [`${String(row[0])}.a`, `${String(row[0])}.b`, 1]);
    (invocation as { setResult(value: unknown): void }).setResult(rows);
  });
  const slow: { x: unknown; finish: (value: unknown) => void }[] = [];
  runtime.associate("SLOW", (x: unknown, invocation: unknown) => {
    slow.push({
      x,
      finish: (value) => (invocation as { setResult(v: unknown): void }).setResult(value),
    });
  });
  return { runtime, slow };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A snapshot without the order the model happened to store its cells and spills in. */
function normalized(snapshot: WorkbookSnapshot): unknown {
  return {
    ...snapshot,
    sheets: snapshot.sheets.map((sheet) => ({
      ...sheet,
      cells: [...sheet.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    })),
    spills: [...snapshot.spills].sort((a, b) => a[0].localeCompare(b[0])),
  };
}

/** Fails with both workbooks when the model is not the one expected. */
function same(workbook: MockWorkbook, expected: unknown, after: string): void {
  const actual = JSON.stringify(normalized(workbook.snapshot()));
  if (actual !== JSON.stringify(expected)) {
    throw new Error(`After ${after}, the model is\n${actual}\nnot\n${JSON.stringify(expected)}`);
  }
}

/** A cell's input as the history takes it: a cell a formula spilled into holds none. */
function inputOf(workbook: MockWorkbook, row: number, column: number): string {
  const spilled = workbook
    .snapshot()
    .spills.some(
      ([, block]) =>
        row >= block.top &&
        row < block.top + block.rowCount &&
        column >= block.left &&
        column < block.left + block.columnCount &&
        (row !== block.top || column !== block.left)
    );
  const cell = workbook.cell("Sheet1", `${"ABCDE"[column]}${row + 1}`);
  return spilled ? "" : (cell.formula ?? String(cell.value));
}

/**
 * The sheet of the generated spec: values in column A, a formula reading them, a spill, and two
 * workbook names (the add-in's), which inserts and deletes move, grow and shrink.
 */
function sheetWithNames(): MockWorkbook {
  const snapshot = new MockWorkbook({
    sheets: { Sheet1: [["x", "=A2&A3"], ["y"], ["z", "=TEST.TABLE(A1:A3)"], ["7"]] },
  }).snapshot();
  snapshot.names = [
    ["inputs", { sheet: "Sheet1", block: { top: 0, left: 0, rowCount: 3, columnCount: 1 } }],
    ["note", { sheet: "Sheet1", block: { top: 3, left: 2, rowCount: 1, columnCount: 1 } }],
  ];
  return MockWorkbook.fromSnapshot(snapshot);
}

const ROWS = 6;
const COLUMNS = 5;

type Action =
  | { kind: "type"; cells: { x: number; y: number; value: string }[] }
  | { kind: "insert"; axis: "row" | "column"; at: number; count: number }
  | { kind: "delete"; axis: "row" | "column"; lines: number[] }
  | { kind: "sort"; keys: number[] }
  | { kind: "undo" }
  | { kind: "redo" };

// Formulas read column A only and are typed right of it, so none reads itself (no cycle), however
// the edits move them: a formula stays right of what it reads. The one spill is the sheet's own
// TEST.TABLE (two spills in each other's way are the formula engine's matter, not undo's).
const typed = fc.oneof(
  fc.record({
    x: fc.constant(0),
    y: fc.nat(ROWS - 1),
    value: fc.constantFrom("", "a", "b", "7", "12"),
  }),
  fc.record({
    x: fc.integer({ min: 1, max: COLUMNS - 1 }),
    y: fc.nat(ROWS - 1),
    value: fc.constantFrom("", "note", "=A1&A2", "=SUM(A2:A5)", "=A4", "=$A$3&A5"),
  })
);

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant("type" as const),
    cells: fc.array(typed, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    axis: fc.constantFrom("row" as const, "column" as const),
    at: fc.nat(ROWS - 1),
    count: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("delete" as const),
    axis: fc.constantFrom("row" as const, "column" as const),
    lines: fc.uniqueArray(fc.nat(ROWS - 1), { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    kind: fc.constant("sort" as const),
    keys: fc.array(fc.nat(9), { minLength: ROWS - 1, maxLength: ROWS - 1 }),
  }),
  fc.constant({ kind: "undo" as const }),
  fc.constant({ kind: "redo" as const })
);

/** The model's structural edits for an action, as the grid's events make them. */
function structuralEdits(action: Action): StructuralEdit[] {
  const sheet = "Sheet1";
  if (action.kind === "insert")
    return [{ sheet, axis: action.axis, at: action.at, count: action.count }];
  if (action.kind === "delete") {
    // The grid deletes its selected lines one at a time, the last first.
    return [...action.lines]
      .sort((a, b) => b - a)
      .map((at) => ({ sheet, axis: action.axis, at, count: -1 }));
  }
  if (action.kind === "sort") {
    // Row 1 stays (the header); the others go in the order of their keys.
    const rows = action.keys
      .map((key, index) => ({ key, row: index + 1 }))
      .sort((a, b) => a.key - b.key || a.row - b.row);
    return [{ sheet, order: [0, ...rows.map(({ row }) => row)], rebase: shiftRowReferences }];
  }
  return [];
}

describe("ModelUndo of inserts, deletes and sorts", () => {
  it("should keep the model equal to the workbook as it was before each edit, after any sequence of typing, inserts, deletes, sorts, undos and redos (generated)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 16 }), async (actions) => {
        const workbook = sheetWithNames();
        const stop = new FormulaEngine(workbook, testRuntime().runtime).start();
        try {
          const history = new ModelUndo(workbook);
          await settled();
          // The reference model: the workbook after each edit kept, and a cursor.
          const states = [normalized(workbook.snapshot())];
          let at = 0;
          const step = (now: unknown) => {
            states.length = at + 1;
            states.push(now);
            at++;
          };
          for (const next of actions) {
            if (next.kind === "type") {
              const before = JSON.stringify(normalized(workbook.snapshot()));
              // A cell typed twice in one edit keeps its last value.
              const last = new Map(next.cells.map((cell) => [`${cell.x},${cell.y}`, cell]));
              const changes = [...last.values()].some(
                ({ x, y, value }) => value !== inputOf(workbook, y, x)
              );
              history.type("Sheet1", next.cells);
              await settled();
              // An edit that changed no input is no step of the history.
              if (changes) step(normalized(workbook.snapshot()));
              else expect(JSON.stringify(normalized(workbook.snapshot()))).toBe(before);
            } else if (next.kind === "undo") {
              expect(history.undo() !== undefined).toBe(at > 0);
              if (at > 0) at--;
              await settled();
            } else if (next.kind === "redo") {
              expect(history.redo() !== undefined).toBe(at < states.length - 1);
              if (at < states.length - 1) at++;
              await settled();
            } else {
              history.structure("Sheet1", structuralEdits(next));
              await settled();
              step(normalized(workbook.snapshot()));
            }
            // Checked after every step (a failure prints its seed and the shortest such sequence).
            same(workbook, states[at], next.kind);
          }
          // Undo of everything gives the workbook as it was first; redo of everything the last.
          while (history.undo()) await settled();
          await settled();
          same(workbook, states[0], "undo of everything");
          while (history.redo()) await settled();
          await settled();
          same(workbook, states[states.length - 1], "redo of everything");
        } finally {
          stop();
        }
      }),
      // FC_SEED replays a failure's seed; FC_RUNS runs longer than the fast profile.
      {
        numRuns: Number(process.env.FC_RUNS ?? 80),
        ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
      }
    );
  }, 60_000);

  it("should bring back a deleted row and the references to it, and delete it again on redo", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [["total", "=A3&A4"], ["gone"], ["kept"], ["last"]] },
    });
    const stop = new FormulaEngine(workbook, testRuntime().runtime).start();
    try {
      const history = new ModelUndo(workbook);
      workbook.setValues("Sheet1", "C2", [['=A2&"!"']]);
      history.structure("Sheet1", [{ sheet: "Sheet1", axis: "row", at: 2, count: -1 }]); // row 3
      await settled();
      expect(workbook.cell("Sheet1", "B1").formula).toBe("=#REF!&A3");
      history.structure("Sheet1", [{ sheet: "Sheet1", axis: "row", at: 1, count: -1 }]); // row 2
      await settled();
      expect(workbook.cell("Sheet1", "A2").value).toBe("last");

      history.undo();
      history.undo();
      await settled();
      expect(workbook.values("Sheet1", "A1:C4")).toEqual([
        ["total", "keptlast", ""],
        ["gone", "", "gone!"],
        ["kept", "", ""],
        ["last", "", ""],
      ]);
      expect(workbook.cell("Sheet1", "B1").formula).toBe("=A3&A4");
      expect(workbook.cell("Sheet1", "C2").formula).toBe('=A2&"!"');

      history.redo();
      await settled();
      expect(workbook.cell("Sheet1", "B1").formula).toBe("=#REF!&A3");
      expect(workbook.values("Sheet1", "A3:A3")).toEqual([["last"]]);
    } finally {
      stop();
    }
  });

  it("should land a result of a run still going in its own row after an insert is undone and redone (results follow rows)", async () => {
    const { runtime, slow } = testRuntime();
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["name"], ["ann"], ["bob"]] } });
    const stop = new FormulaEngine(workbook, runtime).start();
    try {
      const history = new ModelUndo(workbook);
      history.type("Sheet1", [{ x: 1, y: 2, value: "=TEST.SLOW(A3)" }]);
      await settled();
      expect(slow.map(({ x }) => x)).toEqual(["bob"]);
      history.structure("Sheet1", [{ sheet: "Sheet1", axis: "row", at: 1, count: 2 }]);
      history.undo();
      history.redo();
      history.undo();
      await settled();
      slow[0].finish("bob's result");
      await settled();
      expect(workbook.values("Sheet1", "A3:B3")).toEqual([["bob", "bob's result"]]);
      expect(slow.length).withContext("the run is not started again").toBe(1);
      history.redo();
      await settled();
      expect(workbook.values("Sheet1", "A5:B5")).toEqual([["bob", "bob's result"]]);
    } finally {
      stop();
    }
  });

  it("should refuse an undo that would drop data written since into the inserted rows, keep it, and say why", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"], ["b"]] } });
    const refusals: string[] = [];
    const history = new ModelUndo(workbook, (why) => refusals.push(why));
    history.structure("Sheet1", [{ sheet: "Sheet1", axis: "row", at: 1, count: 1 }]);
    workbook.setValues("Sheet1", "A2", [["the add-in's"]]); // not an edit of the history
    expect(history.undo()).toBeUndefined();
    expect(workbook.values("Sheet1", "A1:A3")).toEqual([["a"], ["the add-in's"], ["b"]]);
    expect(refusals).toEqual([
      "Excel cannot undo this: cells it would remove hold data written since.",
    ]);
    expect(history.redo()).withContext("the history is forgotten").toBeUndefined();
  });

  it("should take back the deletes already made when the model refuses one of an edit's inserts", () => {
    const workbook = new MockWorkbook({ sheets: { Sheet1: [["a"], ["b"], ["c"]] } });
    workbook.setValues("Sheet1", "A1048576", [["last"]]);
    const history = new ModelUndo(workbook);
    expect(() =>
      history.structure("Sheet1", [
        { sheet: "Sheet1", axis: "row", at: 1, count: -1 },
        { sheet: "Sheet1", axis: "row", at: 0, count: 2 },
      ])
    ).toThrowError(/cannot shift nonblank cells off/);
    expect(workbook.values("Sheet1", "A1:A3")).toEqual([["a"], ["b"], ["c"]]);
    expect(workbook.values("Sheet1", "A1048576")).toEqual([["last"]]);
    expect(history.undo()).toBeUndefined();
  });
});
