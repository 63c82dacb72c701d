/**
 * Task pane benchmark: a 10,000-row selection run as one bulk, in Node, with the mock workbook
 * (test/taskpane/mockWorkbook.ts) and an in-memory bulk source that finishes runs in scattered
 * order over ~40 polls, as the service does.
 *
 * Prints: syncs spent reading the selection, write syncs vs polls, and the time spent in the
 * add-in's own code (everything but the mock's sync work) per 1,000 rows, next to a baseline
 * measured in the same run: the least any add-in must do with the same data (read it once, turn
 * every output into a cell value, write one block in one sync).
 *
 * Run: npx tsx bench/taskpane.ts
 */
import { performance } from "node:perf_hooks";
import { Observable } from "rxjs";
import type { BulkResumeToken, BulkRunEntry, BulkSnapshot, RunState } from "../src/index.js";
import { BulkRunController } from "../taskpane/bulkRunController.js";
import type { BulkSource } from "../taskpane/bulkRunController.js";
import { defaultMapping, planBulk } from "../taskpane/planBulk.js";
import { readSelection } from "../taskpane/readSelection.js";
import { toCellWrite } from "../taskpane/toCellWrite.js";
import { MockWorkbook } from "../test/taskpane/mockWorkbook.js";
import type { MockCellValue } from "../test/taskpane/mockWorkbook.js";

const ROWS = 10_000;
const CHUNK = 500;
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
function fakeSource(): BulkSource & { polls: number; sourceMs: number } {
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const source = {
    polls: 0,
    sourceMs: 0,
    bulk(spellId: string, inputsList: Record<string, unknown>[]): Observable<BulkSnapshot> {
      return new Observable<BulkSnapshot>((subscriber) => {
        const chunkSizes: number[] = [];
        for (let i = 0; i < inputsList.length; i += CHUNK)
          chunkSizes.push(Math.min(CHUNK, inputsList.length - i));
        const resume: BulkResumeToken = {
          spellId,
          groupIds: chunkSizes.map((_, i) => `group-${i}`),
          chunkSizes,
        };
        const runs: BulkRunEntry[] = inputsList.map(() => ({ state: "inProgress", outputs: {} }));
        let left = runs.length;
        let poll = 0;
        const timer = setInterval(() => {
          const started = performance.now();
          poll++;
          source.polls++;
          const share = poll >= POLLS ? 1 : 1 / (POLLS - poll + 1);
          runs.forEach((run, i) => {
            if (run.state !== "inProgress" || random() >= share) return;
            const text = String(inputsList[i].text);
            runs[i] = {
              state: "success",
              outputs: { translation: `[fr] ${text}`, words: text.split(" ").length },
            };
            left--;
          });
          const counts: Record<RunState | "pending", number> = {
            pending: 0,
            inProgress: left,
            success: runs.length - left,
            failure: 0,
            error: 0,
          };
          const snapshot: BulkSnapshot = {
            groupId: "group-0",
            groupIds: resume.groupIds,
            runs: [...runs],
            done: left === 0,
            total: runs.length,
            counts,
            resume,
          };
          source.sourceMs += performance.now() - started;
          subscriber.next(snapshot);
          if (left === 0) {
            clearInterval(timer);
            subscriber.complete();
          }
        }, 5);
        return () => clearInterval(timer);
      });
    },
    resumeBulk(): Observable<BulkSnapshot> {
      throw new Error("not used");
    },
  };
  return source;
}

async function addinRun(): Promise<Record<string, number>> {
  const workbook = new MockWorkbook({
    sheets: { Sheet1: sheetRows() },
    selection: `Sheet1!A1:B${ROWS + 1}`,
  });
  const uninstall = workbook.install();
  const source = fakeSource();
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
      throw new Error(`only ${progress.counts.success} rows succeeded`);
    return {
      readSyncs,
      writeSyncs: workbook.stats.writeSyncs - syncsBefore.writeSyncs,
      checkReadSyncs: workbook.stats.readSyncs - syncsBefore.readSyncs,
      polls: source.polls,
      maxRequestKB: workbook.stats.maxRequestBytes / 1024,
      maxResponseKB: workbook.stats.maxResponseBytes / 1024,
      addinMs,
      mockMs: workbook.stats.mockMs,
    };
  } finally {
    uninstall();
  }
}

/** The least an add-in can do with the same data: read once, convert, write one block, one sync. */
async function baselineRun(): Promise<number> {
  const workbook = new MockWorkbook({
    sheets: { Sheet1: sheetRows() },
    selection: `Sheet1!A1:B${ROWS + 1}`,
  });
  const uninstall = workbook.install();
  try {
    const started = performance.now();
    await Excel.run(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load("values");
      await context.sync();
      const values = range.values.slice(1).map((row) => {
        const text = String(row[0]);
        return [toCellWrite(`[fr] ${text}`).value, toCellWrite(text.split(" ").length).value];
      });
      context.workbook.worksheets.getItem("Sheet1").getRange(`D2:E${ROWS + 1}`).values = values;
      await context.sync();
    });
    return performance.now() - started - workbook.stats.mockMs;
  } finally {
    uninstall();
  }
}

async function main(): Promise<void> {
  await baselineRun(); // warm-up (JIT), not counted
  await addinRun();
  const baselineMs = await baselineRun();
  const figures = await addinRun();
  const per1000 = (ms: number) => (ms / ROWS) * 1000;
  console.log(
    `Task pane bulk over a ${ROWS.toLocaleString("en")}-row selection (mock workbook, ${figures.polls} polls)`
  );
  console.log(`  read syncs for the selection:  ${figures.readSyncs}`);
  console.log(
    `  write syncs during the bulk:   ${figures.writeSyncs} (polls: ${figures.polls}; at most one write sync per poll)`
  );
  console.log(`  input-check read syncs:        ${figures.checkReadSyncs}`);
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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
