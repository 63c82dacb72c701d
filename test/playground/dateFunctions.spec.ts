import fc from "fast-check";
import { formulaSheet } from "./support/formulaSheet.js";
import type { FormulaSheet } from "./support/formulaSheet.js";

const DAY_MS = 86_400_000;
/** Excel's serial number of a calendar date (1900 date system, from 1 March 1900). */
const serial = (year: number, month: number, day: number) =>
  Math.round((Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 30)) / DAY_MS);

/**
 * The date functions a newcomer uses first (TODAY, NOW, DATE, YEAR, MONTH, DAY, WEEKDAY, EDATE,
 * DATEDIF, NETWORKDAYS) in the playground, with the examples of Microsoft's page of each.
 */
describe("Date functions in the playground (Microsoft's examples)", () => {
  let sheet: FormulaSheet;
  afterEach(() => sheet.stop());

  it("should give DATE's documented results, a month or a day out of range carried over", () => {
    sheet = formulaSheet([[2011, 1, 1]]);
    expect(sheet.shown("=DATE(A1,B1,C1)")).toBe(40544);
    expect(sheet.shown("=DATE(2008,14,2)")).toBe(serial(2009, 2, 2));
    expect(sheet.shown("=DATE(2008,-3,2)")).toBe(serial(2007, 9, 2));
    expect(sheet.shown("=DATE(2008,1,35)")).toBe(serial(2008, 2, 4));
    expect(sheet.shown("=DATE(2008,1,-15)")).toBe(serial(2007, 12, 16));
    expect(sheet.shown("=DATE(108,1,2)")).toBe(serial(2008, 1, 2));
  });

  it("should give YEAR's, MONTH's and DAY's documented results, a date typed as text read too", () => {
    sheet = formulaSheet([[serial(2008, 7, 5), serial(2010, 7, 5), "15-Apr-2011"]]);
    expect(sheet.shown("=YEAR(A1)")).toBe(2008);
    expect(sheet.shown("=YEAR(B1)")).toBe(2010);
    expect(sheet.shown("=MONTH(C1)")).toBe(4);
    expect(sheet.shown("=DAY(C1)")).toBe(15);
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1901-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }),
        (date) => {
          const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
          const made = `DATE(${y},${m},${d})`;
          return (
            sheet.shown(`=${made}`) === serial(y, m, d) &&
            sheet.shown(`=YEAR(${made})*10000+MONTH(${made})*100+DAY(${made})`) ===
              y * 10000 + m * 100 + d
          );
        }
      ),
      { numRuns: 100 }
    );
  });

  it("should count WEEKDAY from Sunday 1 (serial 1 a Sunday, as in Excel), each return type", () => {
    sheet = formulaSheet([[serial(2008, 2, 14)]]);
    expect(sheet.shown("=WEEKDAY(A1)")).toBe(5);
    expect(sheet.shown("=WEEKDAY(A1,2)")).toBe(4);
    expect(sheet.shown("=WEEKDAY(A1,3)")).toBe(3);
    expect(sheet.shown("=WEEKDAY(2)")).toBe(2);
    expect(sheet.shown("=WEEKDAY(A1,17)")).toBe(5);
    expect(sheet.shown("=WEEKDAY(A1,11)")).toBe(4);
    expect(sheet.shown("=WEEKDAY(A1,9)")).toBe("#NUM!");
  });

  it("should give EDATE's documented results, a day past the month's end being its last day", () => {
    sheet = formulaSheet([["15-Jan-2011"]]);
    expect(sheet.shown("=EDATE(A1,1)")).toBe(serial(2011, 2, 15));
    expect(sheet.shown("=EDATE(A1,-1)")).toBe(serial(2010, 12, 15));
    expect(sheet.shown("=EDATE(A1,2)")).toBe(serial(2011, 3, 15));
    expect(sheet.shown("=EDATE(DATE(2011,1,31),1)")).toBe(serial(2011, 2, 28));
    expect(sheet.shown("=EDATE(DATE(2012,3,31),-1)")).toBe(serial(2012, 2, 29));
    fc.assert(
      fc.property(
        fc.integer({ min: 1921, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: -240, max: 240 }),
        (year, month, day, months) => {
          const start = new Date(Date.UTC(year, month - 1, day));
          if (start.getUTCDate() !== day) return true; // 31 April is no date
          const target = new Date(Date.UTC(year, month - 1 + months, 1));
          const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0));
          const expected = serial(
            target.getUTCFullYear(),
            target.getUTCMonth() + 1,
            Math.min(day, last.getUTCDate())
          );
          return sheet.shown(`=EDATE(DATE(${year},${month},${day}),${months})`) === expected;
        }
      ),
      { numRuns: 200 }
    );
  });

  it("should give DATEDIF's and NETWORKDAYS' documented results", () => {
    sheet = formulaSheet([
      [serial(2012, 10, 1), serial(2013, 3, 1), serial(2012, 11, 22)],
      ["", "", serial(2012, 12, 4)],
      ["", "", serial(2013, 1, 21)],
    ]);
    expect(sheet.shown('=DATEDIF(DATE(2001,1,1),DATE(2003,1,1),"Y")')).toBe(2);
    expect(sheet.shown('=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"D")')).toBe(440);
    expect(sheet.shown('=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"YD")')).toBe(75);
    expect(sheet.shown("=NETWORKDAYS(A1,B1)")).toBe(110);
    expect(sheet.shown("=NETWORKDAYS(A1,B1,C1)")).toBe(109);
    expect(sheet.shown("=NETWORKDAYS(A1,B1,C1:C3)")).toBe(107);
  });

  it("should give TODAY and NOW as the computer's date and time, NOW's time a fraction of the day", () => {
    sheet = formulaSheet([[]]);
    const local = (at: number) =>
      (at - new Date(at).getTimezoneOffset() * 60_000 - Date.UTC(1899, 11, 30)) / DAY_MS;
    const before = local(Date.now());
    const now = sheet.shown("=NOW()") as number;
    const after = local(Date.now());
    expect(now).toBeGreaterThanOrEqual(before - 1 / 86_400);
    expect(now).toBeLessThanOrEqual(after + 1 / 86_400);
    expect(sheet.shown("=TODAY()")).toBe(Math.floor(now));
    expect(sheet.shown('=TEXT(TODAY(),"yyyy-mm-dd")')).toBe(
      new Date(Math.floor(now) * DAY_MS + Date.UTC(1899, 11, 30)).toISOString().slice(0, 10)
    );
  });

  it("should keep NOW's value until its formula is calculated again (the playground has no volatile recalculation)", () => {
    sheet = formulaSheet([[1]]);
    const first = sheet.shown("=NOW()") as number;
    sheet.set("A1", 2); // a cell the formula does not read
    expect(sheet.read("J1:J1")[0][0]).toBe(first);
  });
});
