import { shapeOutputs } from "../../functions/shapeOutputs.js";
import { EXCEL_CELL_CHARACTER_LIMIT, toCellValue } from "../../functions/toCellValue.js";

describe("shapeOutputs", () => {
  const outputs = { summary: "Short.", words: 2, ok: true, extra: null };

  it("should give all outputs in one row in the service's order", () => {
    expect(shapeOutputs(outputs)).toEqual([["Short.", 2, true, ""]]);
  });

  it("should give a single output as a single cell", () => {
    expect(shapeOutputs({ summary: "Short." })).toEqual([["Short."]]);
  });

  it("should give the asked outputs in the asked order", () => {
    expect(shapeOutputs(outputs, ["words", "summary"])).toEqual([[2, "Short."]]);
  });

  it("should answer an unknown name with #N/A naming the outputs that exist", () => {
    let error: { code: string; message: string } | undefined;
    try {
      shapeOutputs(outputs, ["summry", "words"]);
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error?.code).toBe("#N/A");
    expect(error?.message).toContain('"summry"');
    expect(error?.message).toContain("summary, words, ok, extra");
  });

  it("should answer a run without outputs with #N/A", () => {
    expect(() => shapeOutputs({})).toThrow(jasmine.objectContaining({ code: "#N/A" }));
  });
});

describe("toCellValue", () => {
  it("should keep numbers and booleans, and empty null", () => {
    expect(toCellValue(3.5)).toBe(3.5);
    expect(toCellValue(false)).toBe(false);
    expect(toCellValue(null)).toBe("");
    expect(toCellValue(undefined)).toBe("");
  });

  it("should turn objects and arrays into JSON text", () => {
    expect(toCellValue({ a: [1, "x"] })).toBe('{"a":[1,"x"]}');
    expect(toCellValue(["a@b.c"])).toBe('["a@b.c"]');
  });

  it("should cut text longer than a cell holds, with a visible marker", () => {
    const long = "x".repeat(40_000);
    const cell = toCellValue(long) as string;
    expect(cell.length).toBe(EXCEL_CELL_CHARACTER_LIMIT);
    expect(cell.startsWith("xxxx")).toBeTrue();
    expect(cell.endsWith("… [cut; 40,000 characters in all]")).toBeTrue();
    const exact = "y".repeat(EXCEL_CELL_CHARACTER_LIMIT);
    expect(toCellValue(exact)).toBe(exact);
  });
});
