import { plainCellValue } from "../../functions/plainCellValue.js";
import { thrown } from "./support/thrown.js";

describe("plainCellValue", () => {
  it("should pass plain cells through unchanged", () => {
    for (const cell of ["Hello", 0, 3.5, true, null, undefined, ""]) {
      expect(plainCellValue(cell)).toBe(cell);
    }
  });

  it("should give an entity's or linked entity's display text", () => {
    expect(
      plainCellValue({
        type: "Entity",
        text: "Contoso Ltd",
        basicValue: "#VALUE!",
        properties: { Ticker: { type: "String", basicValue: "CTSO" } },
      })
    ).toBe("Contoso Ltd");
    expect(
      plainCellValue({
        type: "LinkedEntity",
        id: { entityId: "1", culture: "en-US", domainId: "d", serviceId: 268435456 },
        text: "Seattle",
      })
    ).toBe("Seattle");
  });

  it("should give the basic value of numbers, formatted numbers, text and logical values", () => {
    expect(plainCellValue({ type: "Double", basicValue: 2.5, numberFormat: "0.0" })).toBe(2.5);
    expect(plainCellValue({ type: "FormattedNumber", basicValue: 0.25, numberFormat: "0%" })).toBe(
      0.25
    );
    expect(plainCellValue({ type: "String", basicValue: "x" })).toBe("x");
    expect(plainCellValue({ type: "Boolean", basicValue: false })).toBeFalse();
    expect(plainCellValue({ type: "Empty", basicValue: "" })).toBeNull();
  });

  it("should refuse values with nothing plain to send, naming what the cell holds", () => {
    const cases: [unknown, string][] = [
      [{ type: "WebImage", address: "https://example.com/a.png" }, "an image"],
      [{ type: "Error", errorType: "Div0", basicValue: "#DIV/0!" }, "an error value"],
      [{ type: "Array", elements: [[{ type: "Double", basicValue: 1 }]] }, "an array value"],
      [{ type: "Entity", properties: {} }, "an entity value without display text"],
      [{ type: "Double", basicValue: { nested: true } }, "(Double)"],
      [{ type: "SomethingNew" }, "(SomethingNew)"],
      [{ some: "object" }, "a data type Spell Run cannot send"],
    ];
    for (const [cell, what] of cases) {
      const error = thrown(() => plainCellValue(cell));
      expect(error?.code).withContext(JSON.stringify(cell)).toBe("#VALUE!");
      expect(error?.message).withContext(JSON.stringify(cell)).toContain(what);
    }
  });
});
