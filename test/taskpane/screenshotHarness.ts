/**
 * A page that runs the real task pane outside Excel: the mock workbook stands in for Excel and
 * the document (installed before the task pane code runs), the settings point at an emulator
 * whose address the page receives in `window.__spellEmulator`. Used by `npm run screenshot`.
 */
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { spellRun } from "../../functions/functions.js";
import { cancelableInvocation } from "../functions/support/excelInvocations.js";
import { saveBulkJob } from "../../taskpane/storedJob/jobStore.js";
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
  if (location.search.includes("guard")) await fillDownPastTheGuard(rows);
  const root = document.getElementById("app");
  if (!root) throw new Error("no #app");
  await mountTaskPane(root, taskPaneDeps());
  page.__harness = { workbook, ready: true };
}

/**
 * `=SPELL.RUN("sentiment", A2, "label")` filled down 24 rows with the guard's threshold at 10:
 * 10 run, 14 wait; the first waiting cell's error (as Excel shows it on the cell's error card) is
 * rendered under the pane as `#cell-card`.
 */
async function fillDownPastTheGuard(rows: MockCellValue[][]): Promise<void> {
  await saveSettings({ runsBeforeAsking: 10 });
  // The 10 that run take a while; the first cell that waits answers at once.
  const waiting = await Promise.race(
    rows.slice(1, 25).map((row, index) =>
      spellRun(
        "sentiment",
        [["text"], [row[0]]],
        [["label"]],
        Object.assign(cancelableInvocation(), { address: `Reviews!B${index + 2}` })
      ).then(
        () => new Promise<never>(() => undefined),
        (error: { code: string; message: string }) => ({
          code: error.code,
          message: error.message,
          address: `B${index + 2}`,
        })
      )
    )
  );
  document.body.append(
    Object.assign(document.createElement("section"), {
      id: "cell-card",
      innerHTML:
        '<div class="cell-row"><span class="cell-ref"></span><span class="cell-value"></span></div><p class="cell-message"></p>',
    })
  );
  const card = document.getElementById("cell-card") as HTMLElement;
  (card.querySelector(".cell-ref") as HTMLElement).textContent =
    `${waiting.address}  =SPELL.RUN("sentiment", A${waiting.address.slice(1)}, "label")`;
  (card.querySelector(".cell-value") as HTMLElement).textContent = waiting.code;
  (card.querySelector(".cell-message") as HTMLElement).textContent = waiting.message;
  card.setAttribute(
    "style",
    "margin:16px 8px;padding:8px 10px;border:1px solid #c8c6c4;border-left:4px solid #c50f1f;" +
      "font:13px Segoe UI,sans-serif;background:#fff;max-width:300px"
  );
  (card.querySelector(".cell-value") as HTMLElement).setAttribute(
    "style",
    "float:right;color:#c50f1f;font-weight:600"
  );
  (card.querySelector(".cell-ref") as HTMLElement).setAttribute("style", "color:#605e5c");
}

main().catch((error: unknown) => {
  document.body.textContent = `Harness failed: ${error instanceof Error ? error.message : String(error)}`;
});
