/**
 * Task pane benchmark: a 10,000-row selection, then a whole-column selection of 1,048,575 rows
 * (`Sheet1!A:B`, cut to the used range), each run as one bulk, in Node, with the mock workbook
 * (playground/excel/mockWorkbook.ts, Office's limits on) and an in-memory bulk source that
 * finishes runs in scattered order over ~40 polls, as the service does. `TASKPANE_BENCH_ROWS`
 * (e.g. `10000`) runs one size only.
 *
 * Prints: syncs spent reading the selection, write syncs vs polls, and the time spent in the
 * add-in's own code (everything but the mock's sync work) per 1,000 rows, next to a baseline
 * measured in the same run: the least any add-in must do with the same data (read it once, turn
 * every output into a cell value, write one block in one sync).
 *
 * Run: npx tsx bench/taskpane.ts
 */
import { performance } from "node:perf_hooks";
import { BulkRunController } from "../taskpane/bulk/bulkRunController.js";
import { scatteredBulkSource } from "../test/helpers/scatteredBulkSource.js";
import { defaultMapping, planBulk } from "../taskpane/bulk/planBulk.js";
import { readSelection } from "../taskpane/sheet/readSelection.js";
import { saveBulkJob } from "../taskpane/storedJob/jobStore.js";
import type { BulkJob } from "../taskpane/storedJob/BulkJob.js";
import { rowFingerprint } from "../taskpane/sheet/rowFingerprint.js";
import { toCellWrite } from "../taskpane/sheet/toCellWrite.js";
import { MockWorkbook } from "../playground/excel/mockWorkbook.js";
import { ROW_RECORD_SHEET } from "../taskpane/storedJob/rowRecordStore.js";
import type { MockCellValue } from "../playground/excel/mockWorkbook.js";

const SIZES = process.env.TASKPANE_BENCH_ROWS
  ? [Number(process.env.TASKPANE_BENCH_ROWS)]
  : [10_000, 1_048_575];
let ROWS = SIZES[0];
const CHUNK = 500;
/** Rows per read and per write of the baseline: ~1.6 MB, under Office's 5 MB per sync. */
const BASELINE_CHUNK_ROWS = 20_000;
const POLLS = 40;

function sheetRows(): MockCellValue[][] {
  const rows: MockCellValue[][] = [["text", "language"]];
  for (let i = 0; i < ROWS; i++) {
    rows.push([
      `Customer review number ${i}: the product arrived late but works well enough.`,
      "fr",
    ]);
  }
  return rows;
}

/** Finishes a random share of the remaining runs at each poll; deterministic (seeded). */
function fakeSource(onPoll: (poll: number) => void = () => undefined) {
  return scatteredBulkSource({
    polls: POLLS,
    intervalMs: 5,
    seed: 42,
    chunkSize: CHUNK,
    outputsOf: (inputs) => {
      const text = String(inputs.text);
      return { translation: `[fr] ${text}`, words: text.split(" ").length };
    },
    onPoll,
  });
}

async function addinRun(sortMidRun = false): Promise<Record<string, number>> {
  const workbook = new MockWorkbook({
    sheets: { Sheet1: sheetRows() },
    // A whole sheet is selected by its column headers; smaller blocks as a block.
    selection: ROWS >= 1_000_000 ? "Sheet1!A:B" : `Sheet1!A1:B${ROWS + 1}`,
  });
  const uninstall = workbook.install();
  // With `sortMidRun`, the user sorts the block (descending) at poll 10: every later write must
  // find its rows again by their inputs.
  const source = fakeSource((poll) => {
    if (sortMidRun && poll === 10) {
      workbook.sortRows("Sheet1", 1, ROWS, (cells) => -Number(/\d+/.exec(String(cells[0]))?.[0]));
    }
  });
  // Wall time inside the add-in's own calls, without waiting between polls.
  let addinMs = 0;
  const timed = async <T>(work: () => Promise<T>) => {
    const mockBefore = workbook.stats.mockMs;
    const started = performance.now();
    const result = await work();
    addinMs += performance.now() - started - (workbook.stats.mockMs - mockBefore);
    return result;
  };
  try {
    const selection = await timed(() => readSelection());
    const readSyncs = workbook.stats.syncs;
    const plan = await timed(async () =>
      planBulk(selection, defaultMapping(selection.headers), { onlyRowsWithoutOutputs: true })
    );
    const controller = new BulkRunController(source);
    const syncsBefore = { ...workbook.stats };
    // The main thread's busy time over the run (event-loop utilisation: other threads such as
    // GC helpers are not counted), minus the mock's and the fake source's share.
    const eluBefore = performance.eventLoopUtilization();
    const mockBefore = workbook.stats.mockMs;
    const progress = await controller.start(selection, plan, "translate");
    const busyMs = performance.eventLoopUtilization(eluBefore).active;
    addinMs += busyMs - (workbook.stats.mockMs - mockBefore) - source.sourceMs;
    if (progress.counts.success !== ROWS)
      throw new Error(`only ${progress.counts.success} rows succeeded: ${progress.message}`);
    return {
      readSyncs,
      writeSyncs: workbook.stats.writeSyncs - syncsBefore.writeSyncs,
      checkReadSyncs: workbook.stats.readSyncs - syncsBefore.readSyncs,
      polls: source.polls,
      settingsSaves: workbook.stats.settingsSaves,
      failedSettingsSaves: workbook.stats.failedSettingsSaves,
      largestSavedKB: workbook.stats.largestSettingsBytes / 1024,
      recordWriteSyncs: workbook.stats.hiddenWriteSyncs,
      maxRequestKB: workbook.stats.maxRequestBytes / 1024,
      maxResponseKB: workbook.stats.maxResponseBytes / 1024,
      addinMs,
      mockMs: workbook.stats.mockMs,
    };
  } finally {
    uninstall();
  }
}

/**
 * The least an add-in can do with the same data: read it in chunks under the payload limit,
 * convert, write each chunk (one read and one write at 10,000 rows).
 */
async function baselineRun(): Promise<number> {
  const workbook = new MockWorkbook({
    sheets: { Sheet1: sheetRows() },
    selection: `Sheet1!A1:B${ROWS + 1}`,
  });
  const uninstall = workbook.install();
  try {
    const started = performance.now();
    await Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItem("Sheet1");
      // Chunks under Office's 5 MB limit (one chunk at 10,000 rows): read, convert, write.
      for (let top = 2; top <= ROWS + 1; top += BASELINE_CHUNK_ROWS) {
        const bottom = Math.min(ROWS + 1, top + BASELINE_CHUNK_ROWS - 1);
        const range = sheet.getRange(`A${top}:B${bottom}`);
        range.load("values");
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one read per chunk
        await context.sync();
        const values = range.values.map((row) => {
          const text = String(row[0]);
          return [toCellWrite(`[fr] ${text}`).value, toCellWrite(text.split(" ").length).value];
        });
        sheet.getRange(`D${top}:E${bottom}`).values = values;
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one write per chunk
        await context.sync();
      }
    });
    return performance.now() - started - workbook.stats.mockMs;
  } finally {
    uninstall();
  }
}

/**
 * Where a saved job of `rows` rows lives: the document settings (JSON bytes) and the per-row
 * record in the very hidden sheet (characters per row), as stored at the start (consecutive
 * rows) and after a sort moved every row (the rows list can no longer be ranges).
 */
async function savedJob(rows: number): Promise<{
  settingsKB: number;
  recordBytesPerRow: number;
  sortedSettingsKB: number;
  sortedRecordBytesPerRow: number;
}> {
  const workbook = new MockWorkbook();
  const uninstall = workbook.install();
  const recordChars = () =>
    workbook
      .allCells()
      .filter(({ sheet }) => sheet === ROW_RECORD_SHEET)
      .reduce((sum, { cell }) => sum + String(cell.value).length, 0);
  try {
    const job: BulkJob = {
      version: 1,
      id: "SpellRun_bench",
      blockName: "SpellRun_bench",
      spellId: "translate",
      sheet: "Sheet1",
      sheetId: "{00000000-0001-0000-0000-000000000000}",
      headerRow: 0,
      rows: Array.from({ length: rows }, (_, i) => i + 1),
      inputColumns: [0, 1],
      inputHeaders: ["text", "language"],
      inputNames: ["text", "language"],
      fingerprints: Array.from({ length: rows }, (_, i) => rowFingerprint([`row ${i}`, "fr"])),
      statusColumn: 2,
      outputNames: ["translation", "words"],
      token: {
        spellId: "translate",
        groupIds: Array.from({ length: Math.ceil(rows / CHUNK) }, (_, i) => `group-${i}`),
        chunkSizes: Array.from({ length: Math.ceil(rows / CHUNK) }, () => CHUNK),
      },
      handled: Array.from({ length: Math.floor(rows / 2) }, (_, i) => i * 2),
      startedAt: Date.now(),
    };
    await saveBulkJob(job);
    const settingsKB = JSON.stringify(workbook.savedSettings).length / 1024;
    const recordBytesPerRow = recordChars() / rows;
    job.rows.reverse();
    await saveBulkJob(job);
    return {
      settingsKB,
      recordBytesPerRow,
      sortedSettingsKB: JSON.stringify(workbook.savedSettings).length / 1024,
      sortedRecordBytesPerRow: recordChars() / rows,
    };
  } finally {
    uninstall();
  }
}

async function main(): Promise<void> {
  for (const rows of SIZES) {
    ROWS = rows;
    await benchOneSize();
    console.log("");
  }
}

async function benchOneSize(): Promise<void> {
  const whole = ROWS >= 1_000_000;
  // A million rows: no warm-up round and no sorted round (minutes each; the 10,000-row round
  // shows the sort's cost per row).
  if (!whole) {
    await baselineRun(); // warm-up (JIT), not counted
    await addinRun();
  }
  const baselineMs = await baselineRun();
  const figures = await addinRun();
  const sorted = whole ? undefined : await addinRun(true);
  const job = await savedJob(ROWS);
  const per1000 = (ms: number) => (ms / ROWS) * 1000;
  console.log(
    `Task pane bulk over a ${ROWS.toLocaleString("en")}-row selection${whole ? " (whole columns A:B, cut to the used range)" : ""} (mock workbook, ${figures.polls} polls)`
  );
  console.log(`  read syncs for the selection:  ${figures.readSyncs}`);
  console.log(
    `  write syncs during the bulk:   ${figures.writeSyncs} (polls: ${figures.polls}; at most one write sync per poll)`
  );
  console.log(
    `  write syncs per poll:          ${(figures.writeSyncs / figures.polls).toFixed(2)} (naming the block and deleting the name included)`
  );
  console.log(
    `  read syncs during the bulk:    ${figures.checkReadSyncs} (${(figures.checkReadSyncs / figures.polls).toFixed(2)} per poll: where the block is + the rows' inputs, and the write syncs, which read back what they wrote beside)`
  );
  console.log(
    `  document settings saves:       ${figures.settingsSaves} (largest ${figures.largestSavedKB.toFixed(1)} KB; refused ${figures.failedSettingsSaves}; Excel desktop refuses over 1024 KB)`
  );
  console.log(
    `  record sheet write syncs:      ${figures.recordWriteSyncs} (the per-row record, very hidden sheet; progress at most every 2 s)`
  );
  console.log(
    `  largest request / response:    ${figures.maxRequestKB.toFixed(0)} KB / ${figures.maxResponseKB.toFixed(0)} KB (Office limit 5120 KB)`
  );
  console.log(
    `  add-in code per 1,000 rows:    ${per1000(figures.addinMs).toFixed(1)} ms (mock Excel: ${per1000(figures.mockMs).toFixed(1)} ms)`
  );
  console.log(
    `  baseline per 1,000 rows:       ${per1000(baselineMs).toFixed(1)} ms (read once, convert, write one block)`
  );
  console.log(`  ratio add-in / baseline:       ${(figures.addinMs / baselineMs).toFixed(1)}×`);
  if (sorted) {
    console.log(
      `  sorted at poll 10: read syncs ${sorted.checkReadSyncs} (${(sorted.checkReadSyncs / sorted.polls).toFixed(2)} per poll), ` +
        `write syncs ${sorted.writeSyncs}, add-in code ${per1000(sorted.addinMs).toFixed(1)} ms per 1,000 rows ` +
        `(${(sorted.addinMs / figures.addinMs).toFixed(1)}× the unsorted run), largest save ${sorted.largestSavedKB.toFixed(1)} KB`
    );
  }
  console.log(
    `  saved job: settings ${job.settingsKB.toFixed(1)} KB, per-row record ${job.recordBytesPerRow.toFixed(1)} bytes a row ` +
      `(after a sort moved every row: ${job.sortedSettingsKB.toFixed(1)} KB, ${job.sortedRecordBytesPerRow.toFixed(1)} bytes a row)`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
