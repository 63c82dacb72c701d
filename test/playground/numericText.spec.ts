import fc from "fast-check";
import { formatNumber, numberFromText } from "../../playground/excel/numericText.js";
import { formulaSheet } from "./support/formulaSheet.js";

/** The parts of a numeric text as a person types it: `  -$1,234.50%  `. */
interface Parts {
  spaces: [string, string];
  sign: "" | "+" | "-" | "()";
  dollar: boolean;
  whole: number;
  grouped: boolean;
  fraction: string;
  exponent: number | undefined;
  percent: boolean;
}

const parts: fc.Arbitrary<Parts> = fc
  .record({
    spaces: fc.tuple(fc.constantFrom("", " ", "  "), fc.constantFrom("", " ")),
    sign: fc.constantFrom("" as const, "+" as const, "-" as const, "()" as const),
    dollar: fc.boolean(),
    whole: fc.integer({ min: 0, max: 99_999_999 }),
    grouped: fc.boolean(),
    fraction: fc.stringMatching(/^\d{0,3}$/),
    exponent: fc.option(fc.integer({ min: -4, max: 4 }), { nil: undefined }),
    percent: fc.boolean(),
  })
  // Excel reads an exponent only in plain digits ("1,000e3" and "$1e3" stay text).
  .map((p) => (p.grouped || p.dollar ? { ...p, exponent: undefined } : p));

/** The text typed for `p`. */
function typed(p: Parts): string {
  const digits = p.grouped ? p.whole.toLocaleString("en-US") : String(p.whole);
  const body =
    (p.dollar ? "$" : "") +
    digits +
    (p.fraction ? `.${p.fraction}` : "") +
    (p.exponent === undefined ? "" : `e${p.exponent}`) +
    (p.percent ? "%" : "");
  const signed =
    p.sign === "()" ? `(${body})` : p.sign && p.dollar ? `${p.sign}${body}` : `${p.sign}${body}`;
  return `${p.spaces[0]}${signed}${p.spaces[1]}`;
}

/** The model: Microsoft's rule, the number the parts stand for. */
function modelValue(p: Parts): number {
  const magnitude = (p.whole + Number(`0.${p.fraction || "0"}`)) * 10 ** (p.exponent ?? 0);
  const value = magnitude / (p.percent ? 100 : 1);
  return p.sign === "-" || p.sign === "()" ? -value : value;
}

const close = (a: unknown, b: number) =>
  typeof a === "number" && Math.abs(a - b) <= Math.abs(b) * 1e-12 + 1e-15;

describe("Numeric text (Excel converts text that looks like a number)", () => {
  it("should read every generated numeric text as the model's number, typed and in arithmetic", () => {
    const sheet = formulaSheet([[""]]);
    try {
      fc.assert(
        fc.property(parts, (p) => {
          const text = typed(p);
          const expected = modelValue(p);
          const read = numberFromText(text);
          sheet.set("A1", text);
          const stored = sheet.read("A1")[0][0];
          const times = sheet.shown(`="${text}"*1`);
          const fromCell = sheet.shown("=A1+0", 1, 1, "B1");
          return (
            close(read?.value, expected) &&
            close(stored, expected) &&
            close(times, expected) &&
            close(fromCell, expected)
          );
        }),
        { numRuns: 300 }
      );
    } finally {
      sheet.stop();
    }
  });

  it("should keep text with anything else in it as text, #VALUE! in arithmetic (generated)", () => {
    const sheet = formulaSheet([[""]]);
    // A letter or a sign Excel never reads in a number, anywhere in a numeric text.
    const spoiled = fc
      .record({
        p: parts,
        spoil: fc.constantFrom("x", "a", "#", "&", "%%", "$$", ",,"),
        at: fc.nat(),
      })
      .map(({ p, spoil, at }) => {
        const text = typed(p).trim();
        const where = at % (text.length + 1);
        return `${text.slice(0, where)}${spoil}${text.slice(where)}`;
      });
    try {
      fc.assert(
        fc.property(spoiled, (text) => {
          sheet.set("A1", text);
          // Typed with a leading sign it is a formula ("-x0"), as in Excel.
          const keptAsText = /^[+-]/.test(text) || sheet.read("A1")[0][0] === text;
          return (
            numberFromText(text) === undefined &&
            keptAsText &&
            sheet.shown(`="${text}"*1`) === "#VALUE!"
          );
        }),
        { numRuns: 300 }
      );
    } finally {
      sheet.stop();
    }
  });

  it("should convert Microsoft's examples and give typed numbers Excel's format", () => {
    const sheet = formulaSheet([["'50%", "1,234", "$12.50", "1e3", " 42 "]]);
    try {
      expect(sheet.shown('="50%"*2')).toBe(1);
      expect(sheet.shown('="1,234"+0')).toBe(1234);
      expect(sheet.shown('="$12.50"*2')).toBe(25);
      expect(sheet.shown("=A1*2")).toBe(1);
      expect(sheet.read("A1:E1")).toEqual([["50%", 1234, 12.5, 1000, 42]]);
      // SUM ignores text in a range ("50%" typed with an apostrophe) but reads text given directly.
      expect(sheet.shown("=SUM(A1:E1)")).toBe(2288.5);
      expect(sheet.shown('=SQRT("4")')).toBe(2);
      expect(sheet.shown('=" "+1')).toBe("#VALUE!");
      expect(sheet.shown('="0x10"+1')).toBe("#VALUE!");
      expect(formatNumber(0.5, numberFromText("50%")?.format ?? "")).toBe("50%");
      expect(formatNumber(1234, numberFromText("1,234")?.format ?? "")).toBe("1,234");
      expect(formatNumber(12.5, numberFromText("$12.50")?.format ?? "")).toBe("$12.50");
      expect(formatNumber(1000, numberFromText("1e3")?.format ?? "")).toBe("1.00E+03");
      expect(numberFromText(" 42 ")).toEqual({ value: 42, format: "General" });
    } finally {
      sheet.stop();
    }
  });
});
