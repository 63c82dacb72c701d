import type { Observable } from "rxjs";
import { BulkJobRunner } from "spellrun";
import type { SheetResultWriter } from "../sheet/SheetResultWriter.js";
import type { DocumentCheckpointStore } from "../storedJob/DocumentCheckpointStore.js";
import type { ActiveBulk } from "./ActiveBulk.js";
import type { BulkSource } from "./BulkSource.js";

/**
 * Least time between two written marks of a bulk (the rows written), as the engine's
 * `writtenMarkEveryMs`. Office saves all document settings at once and the per-row record
 * rewrites its handled-rows field, while a bulk of many chunks brings a snapshot several times a
 * second; a crash loses at most this much of the "already written" marks, whose rows a Resume
 * then writes again with the same outputs (nothing runs again). The command line's journal only
 * appends a line, so it marks every 500 ms. The intent, groups, moved rows and kept results are
 * saved at once.
 */
const PROGRESS_SAVE_INTERVAL_MS = 2_000;

/** How long cancel waits for the read of the groups after cancelBulk. */
const CANCEL_READ_TIMEOUT_MS = 15_000;

/**
 * What the engine of a pane's bulk is built from: the client, the document's store, the sheet's
 * writer, the inputs per run, the spending gate and the progress callback.
 *
 * ## Example
 * ```ts
 * const ports: JobEnginePorts = { client, store, writer, inputsList, now: Date.now, onProgress };
 * ```
 */
export interface JobEnginePorts {
  client: BulkSource;
  store: DocumentCheckpointStore;
  writer: SheetResultWriter<number>;
  inputsList: Record<string, unknown>[];
  beforeStart?: (runs: number) => Observable<unknown>;
  now: () => number;
  onProgress: () => void;
}

/**
 * The core's bulk-job engine for a pane's bulk, as the pane runs it: one window over every row
 * (one bulk, chunked into groups by the core, one token; several windows would pay again for a
 * row repeated across them), the core's reuse rule, rows written as they finish, the spending
 * gate on every start, and a resume from what the document holds.
 *
 * ## Example
 * ```ts
 * active.runner = jobEngine(active, ports);
 * ```
 *
 * @param active The bulk.
 * @param ports What it runs against.
 * @return The engine (not started).
 */
export function jobEngine(active: ActiveBulk, ports: JobEnginePorts): BulkJobRunner<number> {
  const resume = ports.store.load();
  return new BulkJobRunner<number>({
    client: ports.client,
    spellId: active.job.spellId,
    rows: active.job.rows.map((_, run) => run),
    inputsOf: (run) => ports.inputsList[run],
    // One window over every row: one bulk (chunked into groups by the core), one token.
    windowSize: Math.max(1, active.job.rows.length),
    maxWindows: 1,
    store: ports.store,
    writer: ports.writer,
    // The core's one reuse rule (as SPELL.BULK and SPELL.RUN): identical rows share one run,
    // rows whose results are still remembered are answered without a run.
    bulkOptions: {
      reuse: true,
      // Charged with the runs really sent, on every start: Run, Resume and Retry failed rows.
      ...(ports.beforeStart ? { beforeStart: ports.beforeStart } : {}),
    },
    writeOrder: "finished",
    writtenMarkEveryMs: PROGRESS_SAVE_INTERVAL_MS,
    cancelReadTimeoutMs: CANCEL_READ_TIMEOUT_MS,
    now: ports.now,
    onProgress: ports.onProgress,
    ...(resume ? { resume } : {}),
  });
}
