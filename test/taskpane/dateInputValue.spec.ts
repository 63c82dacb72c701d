import { dateFormatParts, dateInputValue } from "../../taskpane/sheet/dateInputValue.js";

describe("dateInputValue", () => {
  it("should tell date and time formats from number, currency, percent and text formats", () => {
    expect(dateFormatParts("m/d/yyyy")).toEqual({ date: true, time: false });
    expect(dateFormatParts("[$-409]mmmm d, yyyy;@")).toEqual({ date: true, time: false });
    expect(dateFormatParts("h:mm:ss AM/PM")).toEqual({ date: false, time: true });
    expect(dateFormatParts("dd.mm.yyyy hh:mm")).toEqual({ date: true, time: true });
    for (const format of [
      "General",
      "0.00",
      "$#,##0",
      "0%",
      "@",
      '0.0" days"',
      "[Red]0.00",
      "0.00E+00",
    ]) {
      expect(dateFormatParts(format)).withContext(format).toBeUndefined();
    }
  });

  it("should turn serials into ISO 8601 across Excel's 1900 leap-year bug and leave other values alone", () => {
    expect(dateInputValue(1, "yyyy-mm-dd")).toBe("1900-01-01");
    expect(dateInputValue(59, "yyyy-mm-dd")).toBe("1900-02-28");
    expect(dateInputValue(61, "yyyy-mm-dd")).toBe("1900-03-01");
    expect(dateInputValue(45292.75, "m/d/yy h:mm")).toBe("2024-01-01T18:00:00");
    expect(dateInputValue(45292, "General")).toBe(45292);
    expect(dateInputValue("2024-01-01", "m/d/yyyy")).toBe("2024-01-01");
    expect(dateInputValue(45292, undefined)).toBe(45292);
  });
});
