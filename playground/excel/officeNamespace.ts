/** The `Office` global of a mock workbook. */
import { documentSettings } from "./documentSettings.js";
import type { MockWorkbook } from "./mockWorkbook.js";
import { supportsExcelApi } from "./supportsExcelApi.js";

/** `Office` as the add-in uses it: document settings, requirement sets, `onReady`. */
export function officeNamespace(workbook: MockWorkbook): Record<string, unknown> {
  const settings = documentSettings(workbook);
  return {
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    context: {
      document: { settings },
      ...(workbook.excelApiVersion === undefined
        ? {}
        : {
            requirements: {
              isSetSupported: (name: string, version?: string) =>
                name === "ExcelApi" && supportsExcelApi(workbook.excelApiVersion, version ?? "1.1"),
            },
          }),
    },
    // As Office.js: the callback (if any) is called once ready, and the promise resolves too.
    onReady: async (callback?: (info: { host: string; platform: string }) => unknown) => {
      const info = { host: "Excel", platform: "OfficeOnline" };
      await callback?.(info);
      return info;
    },
    HostType: { Excel: "Excel" },
  };
}
