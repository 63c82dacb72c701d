import { pastedInputs, type Copied } from "../../playground/grid/gridClipboard.js";

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
