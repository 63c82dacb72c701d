import { headerRowAbove } from "../../taskpane/bulk/headerRowAbove.js";

const block = { top: 4, left: 0, rowCount: 4, columnCount: 2 };

describe("headerRowAbove", () => {
  it("should notice names just above a selection whose first row looks like its data", () => {
    expect(
      headerRowAbove({
        block,
        rowAbove: ["text", "n"],
        headers: ["alpha", 1],
        rows: [
          ["beta", 2],
          ["gamma", 3],
        ],
      })
    ).toEqual({ row: 3, names: ["text", "n"] });
  });

  it("should say nothing when the first row does not look like the data under it", () => {
    expect(
      headerRowAbove({
        block,
        rowAbove: ["text", "n"],
        headers: ["review", "count"],
        rows: [
          ["beta", 2],
          ["gamma", 3],
        ],
      })
    ).toBeUndefined();
  });

  it("should say nothing when the row above is not names: empty, numbers, repeated or the sheet's first row", () => {
    const rows = [
      ["beta", 2],
      ["gamma", 3],
    ];
    const ask = (rowAbove?: (string | number)[]) =>
      headerRowAbove({ block, rowAbove, headers: ["alpha", 1], rows });
    expect(ask(["Q3 reviews", ""])).toBeUndefined();
    expect(ask(["text", 2024])).toBeUndefined();
    expect(ask(["text", "Text"])).toBeUndefined();
    expect(ask(undefined)).toBeUndefined();
  });
});
