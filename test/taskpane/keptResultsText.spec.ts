import { keptResultsText } from "../../taskpane/bulk/keptResultsText.js";

describe("keptResultsText (Copy kept results)", () => {
  it("should keep every cell that Excel would read as a formula as text when pasted", () => {
    const text = keptResultsText(
      [
        {
          status: "success",
          outputs: { reply: '=HYPERLINK("http://evil.example","x")' },
          inputs: ["+1"],
        },
        { status: "success", outputs: { reply: "@SUM(A1)" }, inputs: ["-2"] },
        { status: "success", outputs: { reply: "\t=1+1" }, inputs: ["plain"] },
      ],
      ["reply", "=cmd"],
      ["text"]
    );
    const cells = text.split("\n").map((line) => line.split("\t"));
    expect(cells).toEqual([
      ["text", "Spell status", "reply", "'=cmd"],
      ["'+1", "success", `'=HYPERLINK("http://evil.example","x")`, ""],
      ["'-2", "success", "'@SUM(A1)", ""],
      ["plain", "success", " =1+1", ""],
    ]);
    for (const cell of cells.flat()) expect(cell).not.toMatch(/^[=+\-@]/);
  });
});
