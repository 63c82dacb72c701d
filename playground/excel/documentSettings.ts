/** `Office.context.document.settings` of a mock workbook. */
import { OfficeMockObject } from "office-addin-mock";
import type { MockWorkbook } from "./mockWorkbook.js";
import { timed } from "./timed.js";

/** What Excel desktop answers to a settings save of more than about 1 MB. */
export const SETTINGS_TOO_LARGE_MESSAGE =
  "The argument is invalid or missing or has an incorrect format.";

/**
 * The document settings (`get`, `set`, `remove`, `saveAsync`) over `workbook.settings`; a save of
 * more than `workbook.settingsLimitBytes` fails as Excel desktop's does.
 */
export function documentSettings(workbook: MockWorkbook): OfficeMockObject {
  return new OfficeMockObject({
    get: (name: string) =>
      timed(workbook.stats, () =>
        name in workbook.settings ? structuredClone(workbook.settings[name]) : null
      ),
    set: (name: string, value: unknown) =>
      timed(workbook.stats, () => {
        workbook.settings[name] = structuredClone(value);
      }),
    remove: (name: string) => {
      delete workbook.settings[name];
    },
    saveAsync: (...args: unknown[]) => {
      const callback = args.find((arg) => typeof arg === "function") as
        | ((result: { status: string; error?: { code: number; message: string } }) => void)
        | undefined;
      const bytes = timed(workbook.stats, () => {
        const size = new TextEncoder().encode(JSON.stringify(workbook.settings)).length;
        workbook.stats.settingsSaves++;
        workbook.stats.largestSettingsBytes = Math.max(workbook.stats.largestSettingsBytes, size);
        // Excel desktop refuses the whole save; the document keeps what it had.
        if (size <= workbook.settingsLimitBytes) {
          workbook.savedSettings = structuredClone(workbook.settings);
          workbook.onDocumentChanged?.();
        } else workbook.stats.failedSettingsSaves++;
        return size;
      });
      setTimeout(
        () =>
          callback?.(
            bytes <= workbook.settingsLimitBytes
              ? { status: "succeeded" }
              : { status: "failed", error: { code: 5001, message: SETTINGS_TOO_LARGE_MESSAGE } }
          ),
        0
      );
    },
  });
}
