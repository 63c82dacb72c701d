import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

/**
 * TEXT, TEXTBEFORE, TEXTAFTER and TEXTSPLIT in the playground, with the examples of Microsoft's
 * page of each (their data, their formulas, their results) and the rules those pages state.
 */
describe("Text functions in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give TEXT's documented results for its common formats, dates as serial numbers", () => {
    sheet = formulaSheet([["Blue", 39448, 1234.567]]);
    expect(sheet.shown('=TEXT(1234.567,"$#,##0.00")')).toBe("$1,234.57");
    expect(sheet.shown('=TEXT(C1,"0.00")')).toBe("1234.57");
    expect(sheet.shown('=TEXT(C1,"#,##0")')).toBe("1,235");
    expect(sheet.shown('=TEXT(0.285,"0.0%")')).toBe("28.5%");
    expect(sheet.shown('=TEXT(0.285,"0%")')).toBe("29%");
    expect(sheet.shown('=TEXT(B1,"yyyy-mm-dd")')).toBe("2008-01-01");
    expect(sheet.shown('=TEXT(B1,"dd/mm/yyyy")')).toBe("01/01/2008");
    expect(sheet.shown('=TEXT(B1,"mmm d")')).toBe("Jan 1");
    expect(sheet.shown('=TEXT(B1,"dddd")')).toBe("Tuesday");
    expect(sheet.shown('=TEXT(1234,"0000000")')).toBe("0001234");
    expect(sheet.shown('=TEXT(12200000,"0.00E+00")')).toBe("1.22E+07");
    expect(sheet.shown('=TEXT(4.34,"# ?/?")')).toBe("4 1/3");
    expect(sheet.shown('=TEXT(1234567898,"[<=9999999]###-####;(###) ###-####")')).toBe(
      "(123) 456-7898"
    );
  });

  it('should show a text through "@" (and keep a text a number format cannot show)', () => {
    sheet = formulaSheet([["Blue", "12"]]);
    expect(sheet.shown('=TEXT(A1,"@")')).toBe("Blue");
    expect(sheet.shown('=TEXT("Blue","@")')).toBe("Blue");
    expect(sheet.shown('=TEXT(12,"@")')).toBe("12");
    expect(sheet.shown('=TEXT(A1,"0.00")')).toBe("Blue");
    expect(sheet.shown('=TEXT(B1,"0.00")')).toBe("12.00");
  });

  it("should round as Excel shows the number: 1.005 with two decimals is 1.01, halves away from zero", () => {
    sheet = formulaSheet([[]]);
    expect(sheet.shown('=TEXT(1.005,"0.00")')).toBe("1.01");
    expect(sheet.shown('=TEXT(-1.005,"0.00")')).toBe("-1.01");
    expect(sheet.shown('=TEXT(2.5,"0")')).toBe("3");
    // A comma after the last digit shows thousands: rounded after the scaling, not before.
    expect(sheet.shown('=TEXT(12200000,"0.0,,")')).toBe("12.2");
    expect(sheet.shown('=TEXT(1499.6,"#,##0,")')).toBe("1");
    expect(sheet.shown('=TEXT(1500,"#,##0,")')).toBe("2");
    expect(sheet.shown('=TEXT(-2.345,"0.00;(0.00)")')).toBe("(2.35)");
    // Thousandths, whose halves binary fractions cannot hold, rounded in decimal.
    fc.assert(
      fc.property(fc.integer({ min: -9_999_999, max: 9_999_999 }), (thousandths) => {
        const hundredths = Math.sign(thousandths) * Math.floor((Math.abs(thousandths) + 5) / 10);
        const size = Math.abs(hundredths);
        const expected =
          (hundredths < 0 ? "-" : "") +
          `${Math.floor(size / 100)}.${String(size % 100).padStart(2, "0")}`;
        return sheet.shown(`=TEXT(${thousandths / 1000},"0.00")`) === expected;
      }),
      { numRuns: 300 }
    );
  });

  it("should give TEXTBEFORE's documented results", () => {
    sheet = formulaSheet([
      ["Little Red Riding Hood's red hood"],
      ["Little red riding hood's red hood"],
      ["Marcus Aurelius"],
      ["Socrates"],
    ]);
    expect(sheet.shown('=TEXTBEFORE(A1,"Red")')).toBe("Little ");
    expect(sheet.shown('=TEXTBEFORE(A2,"Red")')).toBe("#N/A");
    expect(sheet.shown('=TEXTBEFORE(A2,"red",2)')).toBe("Little red riding hood's ");
    expect(sheet.shown('=TEXTBEFORE(A2,"red",-2)')).toBe("Little ");
    expect(sheet.shown('=TEXTBEFORE(A2,"Red",,FALSE)')).toBe("#N/A");
    expect(sheet.shown('=TEXTBEFORE(A2,"red",3)')).toBe("#N/A");
    expect(sheet.shown('=TEXTBEFORE(A2,"Red",,1)')).toBe("Little ");
    expect(sheet.shown('=TEXTBEFORE(A3," ",,,1)')).toBe("Marcus");
    expect(sheet.shown('=TEXTBEFORE(A4," ",,,0)')).toBe("#N/A");
    expect(sheet.shown('=TEXTBEFORE(A4," ",,,1)')).toBe("Socrates");
    expect(sheet.shown(`=TEXTBEFORE("Red riding hood's, red hood","hood")`)).toBe("Red riding ");
    expect(sheet.shown(`=TEXTBEFORE("Red riding hood's, red hood","")`)).toBe("");
    expect(sheet.shown(`=TEXTBEFORE("Red riding hood's, red hood","",-1)`)).toBe(
      "Red riding hood's, red hood"
    );
    expect(sheet.shown('=TEXTBEFORE(A1,"red",0)')).toBe("#VALUE!");
    expect(sheet.shown('=TEXTBEFORE("","x")')).toBe("");
    expect(sheet.shown('=TEXTBEFORE(A1,"Wolf",,,,"not found")')).toBe("not found");
  });

  it("should give TEXTAFTER's documented results", () => {
    sheet = formulaSheet([
      ["Little Red Riding Hood's red hood"],
      ["Little red riding hood's red hood"],
      ["Marcus Aurelius"],
      ["Socrates"],
    ]);
    expect(sheet.shown('=TEXTAFTER(A1,"Red")')).toBe(" Riding Hood's red hood");
    expect(sheet.shown('=TEXTAFTER(A1,"basket")')).toBe("#N/A");
    expect(sheet.shown('=TEXTAFTER(A2,"red",2)')).toBe(" hood");
    expect(sheet.shown('=TEXTAFTER(A2,"red",-2)')).toBe(" riding hood's red hood");
    expect(sheet.shown('=TEXTAFTER(A2,"Red",,FALSE)')).toBe("#N/A");
    expect(sheet.shown('=TEXTAFTER(A1,"red",3)')).toBe("#N/A");
    expect(sheet.shown('=TEXTAFTER(A3," ",,,1)')).toBe("Aurelius");
    expect(sheet.shown('=TEXTAFTER(A4," ",,,0)')).toBe("#N/A");
    expect(sheet.shown('=TEXTAFTER(A4," ",,,1)')).toBe("");
    expect(sheet.shown(`=TEXTAFTER("Red riding hood's, red hood","hood")`)).toBe("'s, red hood");
    expect(sheet.shown(`=TEXTAFTER("Red riding hood's, red hood","")`)).toBe(
      "Red riding hood's, red hood"
    );
    expect(sheet.shown(`=TEXTAFTER("Red riding hood's, red hood","",-1)`)).toBe("");
    expect(sheet.shown('=TEXTAFTER(A1,"basket",1,0,0,"No match")')).toBe("No match");
  });

  it("should spill TEXTSPLIT's parts across and down, short rows padded with #N/A", () => {
    sheet = formulaSheet([
      ["Dakota Lennon Sanchez"],
      ["Do. Or do not. There is no try. -Anonymous"],
    ]);
    expect(sheet.shown('=TEXTSPLIT(A1," ")', 1, 3)).toEqual([["Dakota", "Lennon", "Sanchez"]]);
    expect(sheet.shown('=TEXTSPLIT(A2,".")', 1, 4)).toEqual([
      ["Do", " Or do not", " There is no try", " -Anonymous"],
    ]);
    expect(sheet.shown('=TEXTSPLIT(A2,,".")', 4, 1)).toEqual([
      ["Do"],
      [" Or do not"],
      [" There is no try"],
      [" -Anonymous"],
    ]);
    expect(sheet.shown('=TEXTSPLIT("1,2,3;4,5",",",";")', 2, 3)).toEqual([
      ["1", "2", "3"],
      ["4", "5", "#N/A"],
    ]);
    expect(sheet.shown('=TEXTSPLIT("1,2,3;4,5",",",";",,,0)', 2, 3)).toEqual([
      ["1", "2", "3"],
      ["4", "5", 0],
    ]);
    expect(sheet.shown('=TEXTSPLIT("a,,b",",",,TRUE)', 1, 2)).toEqual([["a", "b"]]);
    expect(sheet.shown('=TEXTSPLIT("1.2,3",{".",","})', 1, 3)).toEqual([["1", "2", "3"]]);
    expect(sheet.shown('=TEXTSPLIT("aXbxc","x",,,1)', 1, 3)).toEqual([["a", "b", "c"]]);
  });

  it("should join what TEXTSPLIT splits back into the text, for any text and delimiter", () => {
    sheet = formulaSheet([[]]);
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z ]{1,4}$/), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(",", ";", "-", "::"),
        (parts, delimiter) => {
          const text = parts.join(delimiter);
          sheet.set("A1", text);
          const shown = sheet.shown(`=TEXTSPLIT(A1,"${delimiter}")`, 1, parts.length);
          const grid = Array.isArray(shown) ? shown : [[shown]];
          return JSON.stringify(grid) === JSON.stringify([parts]);
        }
      ),
      { numRuns: 100 }
    );
  });
});
