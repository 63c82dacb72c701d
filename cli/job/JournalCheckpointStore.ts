import type {
  BulkResumeToken,
  Checkpoint,
  CheckpointStore,
  JobOutcome,
  WindowIntent,
  WrittenMark,
} from "spellrun";
import type { Journal } from "./Journal.js";
import type { OutputFile } from "../table/OutputFile.js";
import { replayJournal } from "./replayJournal.js";

/**
 * The command line's checkpoint store: the journal file next to the output. Every record is
 * fsynced before the engine goes on; a written mark first flushes the output and records its
 * length, so `resume` can cut off rows written after it.
 *
 * ## Example
 * ```ts
 * const store = new JournalCheckpointStore(journal, output);
 * await new BulkJobRunner({ ...options, store }).run();
 * ```
 */
export class JournalCheckpointStore implements CheckpointStore {
  constructor(
    private readonly journal: Journal,
    private readonly output: OutputFile,
    /**
     * Whether the writer still holds rows back from the file (waiting for the layout): a mark
     * then is not recorded, the writer records it once the rows are written.
     */
    private readonly holdsRows: () => boolean = () => false,
    /**
     * When the job's rows stopped at the `--max-runs` budget, the rows the input held at least
     * (recorded with the end); undefined otherwise.
     */
    private readonly budgetStop: () => number | undefined = () => undefined
  ) {}

  /** The journal's checkpoint, read from its file. */
  load(): Checkpoint {
    return replayJournal(this.journal.records());
  }

  /** @param intent the window about to be sent */
  recordIntent(intent: WindowIntent): void {
    this.journal.append({ type: "intent", ...intent });
  }

  /**
   * @param window the window @param groupId its (first) group
   * @param token the core's resume token, when the window went out as several bulk runs
   */
  recordGroup(window: number, groupId: string, token?: BulkResumeToken): void {
    this.journal.append({ type: "group", window, groupId, ...(token ? { token } : {}) });
  }

  /** @param window the window the service refused */
  recordRefused(window: number): void {
    this.journal.append({ type: "refused", window });
  }

  /** @param mark the rows written, after the output was flushed */
  recordWritten(mark: WrittenMark): void {
    // Rows not in the file yet are not written: a mark at byte 0, before the layout, would make
    // a resume take them as written and cut the output before them.
    if (this.holdsRows()) return;
    this.output.sync();
    this.journal.append({
      type: "written",
      rows: mark.rows,
      bytes: this.output.bytes,
      counts: mark.counts,
    });
  }

  /** @param outcome how the run ended @param rows rows written */
  recordEnd(outcome: JobOutcome, rows: number): void {
    const atLeast = outcome === "input-error" ? this.budgetStop() : undefined;
    this.journal.append({
      type: "end",
      outcome,
      rows,
      ...(atLeast !== undefined ? { stop: "budget", inputRowsAtLeast: atLeast } : {}),
    });
  }
}
