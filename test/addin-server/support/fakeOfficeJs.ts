/**
 * What the built add-in page gets instead of Microsoft's office.js in the add-in server's
 * Chromium spec (the spec serves this bundle at the CDN address the production page loads): the
 * mock workbook as Excel and the document, `Office.onReady` for Excel, and a `CustomFunctions`
 * that records what the functions bundle associates, so the spec can call SPELL.RUN and
 * SPELL.BULK as Excel would.
 */
import { MockWorkbook } from "../../../playground/excel/mockWorkbook.js";

interface FakeOfficeWindow {
  Office: Record<string, unknown>;
  CustomFunctions: Record<string, unknown>;
  __customFunctions: Record<string, (...args: unknown[]) => unknown>;
  __workbook: MockWorkbook;
}

const page = window as unknown as FakeOfficeWindow;
const workbook = new MockWorkbook({
  sheets: { Reviews: [["text"], ["Spells are stored. They run."], ["Cells run spells. Fast."]] },
  selection: "Reviews!A1:A3",
});
workbook.install();
const office = page.Office;
const ready = { host: "Excel", platform: "OfficeOnline" };
// office.js calls the callback and resolves; the page passes a callback.
office.onReady = (callback?: (info: typeof ready) => unknown) =>
  Promise.resolve(ready).then((info) => {
    callback?.(info);
    return info;
  });

class CustomFunctionsError extends Error {
  override name = "CustomFunctionsError";
  constructor(
    readonly code: string,
    message?: string
  ) {
    super(message);
  }
}

page.__customFunctions = {};
page.CustomFunctions = {
  associate: (id: string, implementation: (...args: unknown[]) => unknown) => {
    page.__customFunctions[id] = implementation;
  },
  Error: CustomFunctionsError,
  ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" },
};
page.__workbook = workbook;
