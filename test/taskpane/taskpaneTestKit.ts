/**
 * Shared set-up of the task pane's browser specs: a mock workbook with a selection, a real
 * `SpellClient` against the Karma emulator (fast polling), and small waiting helpers.
 */
import { SpellClient } from "../../src/index.js";
import type { SpellClientOptions } from "../../src/index.js";
import { emulatorForBrowser } from "../helpers/emulatorClient.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import type { BulkRunController } from "../../taskpane/bulk/bulkRunController.js";
import { clearBulkJob, loadBulkJobs } from "../../taskpane/storedJob/jobStore.js";
import { freezeFormulas } from "../../taskpane/sheet/freezeFormulas.js";
import { readSelection } from "../../taskpane/sheet/readSelection.js";
import { selectedColumn } from "../../taskpane/sheet/selectedColumn.js";
import type { BulkViewDeps } from "../../taskpane/ui/bulkView.js";

/** A client of the Karma emulator that polls every 50 ms. */
export function emulatorClient(overrides: Partial<SpellClientOptions> = {}): SpellClient {
  const { baseUrl, pollBaseUrl, apiKey } = emulatorForBrowser();
  return new SpellClient({
    apiKey,
    baseUrl,
    pollBaseUrl,
    poll: { initialDelayMs: 20, intervalMs: 50, growth: 1, maxIntervalMs: 50 },
    retry: { limit: 2, baseDelayMs: 20, maxDelayMs: 100 },
    ...overrides,
  });
}

/** A workbook whose Sheet1 holds `rows` from A1 (header first), selected. */
export function workbookWith(rows: MockCellValue[][]): MockWorkbook {
  const columns = Math.max(...rows.map((row) => row.length));
  const last = String.fromCharCode(64 + columns);
  return new MockWorkbook({
    sheets: { Sheet1: rows },
    selection: `Sheet1!A1:${last}${rows.length}`,
  });
}

/** Waits until `condition()` holds, checking every 20 ms, failing after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = "condition"
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * What the bulk view needs, with the real sheet modules over the installed mock workbook and
 * "echo" as the only recent spell; `extra` adds or replaces some (the record sheet, damaged jobs).
 */
export function bulkViewDeps(
  controller: BulkRunController,
  extra: Partial<BulkViewDeps> = {}
): BulkViewDeps {
  return {
    controller,
    readSelection: (options) => readSelection(undefined, options),
    selectedColumn,
    freezeFormulas,
    recentSpells: async () => ["echo"],
    rememberSpell: async (id) => [id],
    loadBulkJobs,
    clearBulkJob,
    ...extra,
  };
}
