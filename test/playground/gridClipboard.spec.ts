import {
  pasteOverSelection,
  pastedInputs,
  type Copied,
} from "../../playground/grid/gridClipboard.js";

/** What jspreadsheet hands `onbeforepaste`: the clipboard's text, repeated over the selection. */
function pastedText(rows: string[][]): { value: unknown }[][] {
  return rows.map((row) => row.map((value) => ({ value })));
}

describe("pastedInputs", () => {
  // F2 copied: its formula and what it showed.
  const oneCell: Copied = {
    sheet: "Reviews",
    left: 5,
    top: 1,
    inputs: [["=LEN(A2)"]],
    shown: [["66"]],
  };

  it("should paste one copied formula into a column of four cells, its row moved per cell", () => {
    const pasted = pastedText([["66"], ["66"], ["66"], ["66"]]);
    expect(pastedInputs(oneCell, pasted, 7, 1)).toEqual([
      ["=LEN(C2)"],
      ["=LEN(C3)"],
      ["=LEN(C4)"],
      ["=LEN(C5)"],
    ]);
  });

  it("should repeat a copy of two rows and two columns over a selection twice its size each way", () => {
    const copied: Copied = {
      sheet: "Reviews",
      left: 0,
      top: 0,
      inputs: [
        ["=B1", "x"],
        ["=B2", "y"],
      ],
      shown: [
        ["1", "x"],
        ["2", "y"],
      ],
    };
    const pasted = pastedText([
      ["1", "x", "1", "x"],
      ["2", "y", "2", "y"],
      ["1", "x", "1", "x"],
      ["2", "y", "2", "y"],
    ]);
    expect(pastedInputs(copied, pasted, 3, 10)).toEqual([
      ["=E11", "x", "=G11", "x"],
      ["=E12", "y", "=G12", "y"],
      ["=E13", "x", "=G13", "x"],
      ["=E14", "y", "=G14", "y"],
    ]);
  });

  it("should leave a paste that is not the copy, or not a multiple of its size, to the text pasted", () => {
    expect(pastedInputs(oneCell, pastedText([["other"]]), 7, 1)).toBeUndefined();
    const twoRows: Copied = { ...oneCell, inputs: [["=A2"], ["=A3"]], shown: [["a"], ["b"]] };
    expect(pastedInputs(twoRows, pastedText([["a"], ["b"], ["a"]]), 7, 1)).toBeUndefined();
    expect(pastedInputs(undefined, pastedText([["66"]]), 7, 1)).toBeUndefined();
  });
});

describe("pasteOverSelection", () => {
  const oneCell: Copied = {
    sheet: "Reviews",
    left: 4,
    top: 1,
    inputs: [["=LEN(D2)"]],
    shown: [["6"]],
  };

  it("should fill every row of a selection longer than the part the grid holds, each formula moved to its row", () => {
    // E3:E100002 selected; the grid holds its last 22 rows (the paste starts at E99981 there).
    const selection = { top: 2, left: 4, rowCount: 100_000, columnCount: 1 };
    const pasted = pastedText(Array.from({ length: 22 }, () => ["6"]));
    const started = Date.now();
    const { cells, block } = pasteOverSelection(
      oneCell,
      pasted,
      { row: 99_980, column: 4 },
      selection
    );
    const elapsed = Date.now() - started;
    expect(block).toEqual(selection);
    expect(cells.length).toBe(100_000);
    expect(cells[0]).toEqual({ x: 4, y: 2, value: "=LEN(D3)" });
    expect(cells[99_999]).toEqual({ x: 4, y: 100_001, value: "=LEN(D100002)" });
    expect(elapsed).toBeLessThan(5_000);
  });

  it("should repeat text from elsewhere over a selection that is a multiple of it, else write it once", () => {
    const selection = { top: 0, left: 0, rowCount: 6, columnCount: 1 };
    // "a", "b" pasted; the grid repeated it over the 4 rows it holds of A1:A6.
    const pasted = pastedText([["a"], ["b"], ["a"], ["b"]]);
    const repeated = pasteOverSelection(undefined, pasted, { row: 0, column: 0 }, selection);
    expect(repeated.cells.map((cell) => cell.value)).toEqual(["a", "b", "a", "b", "a", "b"]);
    const once = pasteOverSelection(
      undefined,
      pasted,
      { row: 0, column: 0 },
      { ...selection, rowCount: 5 }
    );
    expect(once.block).toEqual({ top: 0, left: 0, rowCount: 2, columnCount: 1 });
  });

  it("should paste at the grid's cell when the selection does not hold it, and stop at the sheet's last row", () => {
    const pasted = pastedText([["x"], ["y"]]);
    const elsewhere = pasteOverSelection(
      undefined,
      pasted,
      { row: 1_048_575, column: 2 },
      {
        top: 0,
        left: 0,
        rowCount: 1,
        columnCount: 1,
      }
    );
    expect(elsewhere.cells).toEqual([{ x: 2, y: 1_048_575, value: "x" }]);
  });

  it("should paste once at the first cell of the whole sheet (Ctrl+A), never over its 17 billion cells", () => {
    const sheet = { top: 0, left: 0, rowCount: 1_048_576, columnCount: 16_384 };
    const once = pasteOverSelection(undefined, pastedText([["x"]]), { row: 0, column: 0 }, sheet);
    expect(once.cells).toEqual([{ x: 0, y: 0, value: "x" }]);
    const column = { ...sheet, columnCount: 1 };
    const filled = pasteOverSelection(
      undefined,
      pastedText([["x"]]),
      { row: 0, column: 0 },
      column
    );
    expect(filled.cells.length).toBe(1_048_576);
  });
});
