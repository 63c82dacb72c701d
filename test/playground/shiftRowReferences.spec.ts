import { shiftRowReferences } from "../../playground/formulas/shiftRowReferences.js";

describe("shiftRowReferences", () => {
  it("should move relative rows and leave absolute rows, quoted text and function names alone", () => {
    expect(shiftRowReferences('=SPELL.RUN("summarize", SPELL.INPUTS("text", A5))', -3)).toBe(
      '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2))'
    );
    expect(shiftRowReferences("=SUM(A5:B7)+A$1+$C9", 2)).toBe("=SUM(A7:B9)+A$1+$C11");
    expect(shiftRowReferences('=LOG10(A5)&"A5"', 1)).toBe('=LOG10(A6)&"A5"');
    expect(shiftRowReferences("=Sheet2!B3", -1)).toBe("=Sheet2!B2");
  });

  it("should make a reference moved above row 1 #REF!", () => {
    expect(shiftRowReferences("=A2", -2)).toBe("=#REF!");
  });
});
