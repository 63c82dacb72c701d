/**
 * A page that runs the real task pane outside Excel: the mock workbook stands in for Excel and
 * the document (installed before the task pane code runs), the settings point at an emulator
 * whose address the page receives in `window.__spellEmulator`. Used by `npm run screenshot`.
 */
import { saveSettings } from "../../addin/settings.js";
import { saveBulkJob } from "../../taskpane/bulk/resumeState.js";
import { rowFingerprint } from "../../taskpane/sheet/rowFingerprint.js";
import { mountTaskPane } from "../../taskpane/ui/mountTaskPane.js";
import { taskPaneDeps } from "../../taskpane/ui/taskPaneDeps.js";
import { MockWorkbook } from "../../playground/excel/mockWorkbook.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";

interface HarnessWindow {
  __spellEmulator?: { baseUrl: string; pollBaseUrl: string; apiKey: string };
  __harness?: { workbook: MockWorkbook; ready: boolean };
}

const REVIEWS = [
  "Arrived a day early and works perfectly. Setup took five minutes.",
  "The strap broke after a week. Support replied quickly, though.",
  "Great sound for the price; the app is clunky.",
  "Battery lasts two days of heavy use. Very happy.",
  "Not as described: the colour is much darker than in the photos.",
  "Solid build, quiet motor, easy to clean.",
  "Stopped charging after a month. Refund was painless.",
  "Exactly what I needed for the office.",
];

async function main(): Promise<void> {
  const page = window as unknown as HarnessWindow;
  const emulator = page.__spellEmulator;
  if (!emulator) throw new Error("window.__spellEmulator is not set");
  const rows: MockCellValue[][] = [["text"]];
  for (let i = 0; i < 40; i++) rows.push([`${REVIEWS[i % REVIEWS.length]} (order ${1001 + i})`]);
  const workbook = new MockWorkbook({ sheets: { Reviews: rows }, selection: "Reviews!A1:A41" });
  workbook.install();
  await saveSettings({ ...emulator, authHeader: "authorization", maxInFlight: 8 });
  if (location.search.includes("resumable")) {
    // As a workbook reopened after the pane was closed mid-run: 40 rows, 14 written.
    await saveBulkJob({
      version: 1,
      id: "SpellRun_screenshot",
      spellId: "summarize",
      sheet: "Reviews",
      headerRow: 0,
      rows: Array.from({ length: 40 }, (_, i) => i + 1),
      inputColumns: [0],
      inputNames: ["text"],
      fingerprints: rows.slice(1).map((row) => rowFingerprint(row)),
      statusColumn: 1,
      outputNames: ["summary"],
      token: { spellId: "summarize", groupIds: ["bulk_screenshot"], chunkSizes: [40] },
      handled: Array.from({ length: 14 }, (_, i) => i),
      startedAt: Date.now() - 95_000,
    });
  }
  const root = document.getElementById("app");
  if (!root) throw new Error("no #app");
  await mountTaskPane(root, taskPaneDeps());
  page.__harness = { workbook, ready: true };
}

main().catch((error: unknown) => {
  document.body.textContent = `Harness failed: ${error instanceof Error ? error.message : String(error)}`;
});
