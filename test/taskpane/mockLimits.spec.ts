import { MockWorkbook, SETTINGS_TOO_LARGE_MESSAGE } from "../../playground/excel/mockWorkbook.js";

/** Saves the document settings; resolves with the AsyncResult the callback got. */
function saveSettings(): Promise<Office.AsyncResult<void>> {
  return new Promise((resolve) => Office.context.document.settings.saveAsync(resolve));
}

describe("MockWorkbook keeps Office's limits", () => {
  let uninstall: () => void = () => undefined;
  afterEach(() => uninstall());

  it("should refuse a settings save over 1 MB as Excel desktop does, keeping the last saved settings", async () => {
    const workbook = new MockWorkbook();
    uninstall = workbook.install();
    Office.context.document.settings.set("small", "x".repeat(1_000));
    expect((await saveSettings()).status).toBe(Office.AsyncResultStatus.Succeeded);

    Office.context.document.settings.set("large", "x".repeat(1024 * 1024));
    const refused = await saveSettings();
    expect(refused.status).toBe(Office.AsyncResultStatus.Failed);
    expect(refused.error.message).toBe(SETTINGS_TOO_LARGE_MESSAGE);
    expect(workbook.stats.failedSettingsSaves).toBe(1);
    expect(workbook.stats.largestSettingsBytes).toBeGreaterThan(1024 * 1024);
    workbook.reload();
    expect(Office.context.document.settings.get("large")).toBeNull();
    expect(Office.context.document.settings.get("small")).toBe("x".repeat(1_000));
  });

  it("should fail a sync whose response is over 5 MB", async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => [`${"y".repeat(2_000)}${i}`]);
    const workbook = new MockWorkbook({ sheets: { Sheet1: rows } });
    uninstall = workbook.install();
    await expectAsync(
      Excel.run(async (context) => {
        const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1:A3000");
        range.load("values");
        await context.sync();
      })
    ).toBeRejectedWith(jasmine.objectContaining({ code: "ResponsePayloadSizeLimitExceeded" }));
  });

  it("should report whole columns as Excel does and give the used range (values only)", async () => {
    const workbook = new MockWorkbook({
      sheets: { Sheet1: [[], [], ["", "name"], ["", "ada"]] },
      selection: "Sheet1!A:C",
    });
    uninstall = workbook.install();
    const [address, used, emptyIsNull] = await Excel.run(async (context) => {
      const selected = context.workbook.getSelectedRange();
      selected.load("address");
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      const usedRange = sheet.getUsedRangeOrNullObject(true).load("address");
      context.workbook.worksheets.add("Empty");
      const empty = context.workbook.worksheets.getItem("Empty").getUsedRangeOrNullObject(true);
      await context.sync();
      return [selected.address, usedRange.address, empty.isNullObject];
    });
    expect(address).toBe("Sheet1!A:C");
    expect(used).toBe("Sheet1!B3:B4");
    expect(emptyIsNull).toBe(true); // a sheet with no cells has no used range
  });

  it("should add a very hidden sheet at sync, and find it by getItemOrNullObject", async () => {
    const workbook = new MockWorkbook();
    uninstall = workbook.install();
    const before = await Excel.run(async (context) => {
      const missing = context.workbook.worksheets.getItemOrNullObject("Store");
      await context.sync();
      return missing.isNullObject;
    });
    expect(before).toBe(true);
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.add("Store");
      sheet.visibility = Excel.SheetVisibility.veryHidden;
      sheet.getRange("A1").values = [["kept"]];
      expect(workbook.sheetVisibility("Store")).toBeUndefined(); // nothing before the sync
      await context.sync();
    });
    expect(workbook.sheetVisibility("Store")).toBe("VeryHidden");
    expect(workbook.values("Store", "A1")).toEqual([["kept"]]);
  });
});
