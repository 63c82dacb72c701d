import { shiftReferences } from "../../playground/formulas/shiftReferences.js";

// Microsoft, "Move or copy a formula": when a formula is copied, relative cell references change
// and absolute ones ($A$1) stay.
describe("shiftReferences (a formula copied and pasted elsewhere)", () => {
  it("should move relative references by the distance of the paste", () => {
    expect(shiftReferences("=LEN(A2)", 3, 1)).toBe("=LEN(B5)");
    expect(shiftReferences("=SUM(A1:B2)*C3", 1, 2)).toBe("=SUM(C2:D3)*E4");
  });

  it("should keep absolute parts, text in quotes and function names with digits", () => {
    expect(shiftReferences("=$A$1+A$1+$A1", 2, 2)).toBe("=$A$1+C$1+$A3");
    expect(shiftReferences('=SPELL.RUN("A1", SPELL.INPUTS("text", A2))', 1, 0)).toBe(
      '=SPELL.RUN("A1", SPELL.INPUTS("text", A3))'
    );
    expect(shiftReferences("=LOG10(A1)", 1, 0)).toBe("=LOG10(A2)");
  });

  it("should give #REF! to a reference moved off the sheet", () => {
    expect(shiftReferences("=A1", -1, 0)).toBe("=#REF!");
    expect(shiftReferences("=A1", 0, -1)).toBe("=#REF!");
  });
});
