import {
  replayCheckpoint,
  type Checkpoint,
  type CheckpointRecord,
  type CheckpointStore,
  type JobOutcome,
  type WindowIntent,
  type WrittenMark,
} from "../../src";
import { saveSettings } from "./resumeState.js";

/** Prefix of the document setting that holds one engine job's checkpoint. */
export const BULK_CHECKPOINT_SETTING = "spellrun.bulkCheckpoint";

/** What the setting holds: the checkpoint replayed so far, small whatever the job's length. */
interface StoredCheckpoint {
  writtenRows: number;
  counts: Checkpoint["counts"];
  /** [window, count, sent, groupId] per window sent and not refused. */
  windows: [number, number, number | null, string | null][];
  outcome?: JobOutcome;
}

/**
 * The task pane's checkpoint store for the core's bulk-job engine: the workbook's document
 * settings (they travel with the workbook, so a reload, another machine or Excel on the web can
 * resume). Each record updates the replayed checkpoint and saves the settings before the engine
 * goes on, so an intent is in the document before its bulkStart leaves; written marks come
 * throttled by the engine. Never the API key.
 *
 * ## Example
 * ```ts
 * const store = new DocumentCheckpointStore(job.id);
 * await new BulkJobRunner({ ...options, store, resume: store.load() }).run();
 * ```
 */
export class DocumentCheckpointStore implements CheckpointStore {
  private readonly key: string;

  /** @param jobId the job's id among the document's jobs (its block's name) */
  constructor(jobId: string) {
    this.key = `${BULK_CHECKPOINT_SETTING}.${jobId}`;
  }

  /** The checkpoint saved in the document, if any (unreadable counts as none). */
  load(): Checkpoint | undefined {
    const stored = Office.context.document.settings.get(this.key) as StoredCheckpoint | null;
    if (!stored || !Array.isArray(stored.windows)) return undefined;
    const windows = new Map(
      stored.windows.map(([window, count, sent, groupId]) => [
        window,
        {
          count,
          ...(sent === null ? {} : { sent }),
          ...(groupId === null ? {} : { groupId }),
        },
      ])
    );
    return {
      writtenRows: stored.writtenRows,
      counts: { ...stored.counts },
      windows,
      ...(stored.outcome ? { outcome: stored.outcome } : {}),
    };
  }

  /** @param intent the window about to be sent */
  recordIntent(intent: WindowIntent): Promise<void> {
    return this.record({ type: "intent", ...intent });
  }

  /** @param window the window @param groupId its group */
  recordGroup(window: number, groupId: string): Promise<void> {
    return this.record({ type: "group", window, groupId });
  }

  /** @param window the window the service refused */
  recordRefused(window: number): Promise<void> {
    return this.record({ type: "refused", window });
  }

  /** @param mark the rows written */
  recordWritten(mark: WrittenMark): Promise<void> {
    return this.record({ type: "written", ...mark });
  }

  /** @param outcome how the run ended @param rows rows written */
  recordEnd(outcome: JobOutcome, rows: number): Promise<void> {
    return this.record({ type: "end", outcome, rows });
  }

  /** Forgets the checkpoint (the job is over or dismissed). */
  async clear(): Promise<void> {
    Office.context.document.settings.remove(this.key);
    await saveSettings();
  }

  private async record(record: CheckpointRecord): Promise<void> {
    // The stored checkpoint is replayed as records of its own, then the new one on top.
    const checkpoint = replayCheckpoint([...recordsOf(this.load()), record]);
    const stored: StoredCheckpoint = {
      writtenRows: checkpoint.writtenRows,
      counts: checkpoint.counts,
      windows: [...checkpoint.windows.entries()].map(([window, known]) => [
        window,
        known.count,
        known.sent ?? null,
        known.groupId ?? null,
      ]),
      ...(checkpoint.outcome ? { outcome: checkpoint.outcome } : {}),
    };
    Office.context.document.settings.set(this.key, stored);
    await saveSettings();
  }
}

/** A checkpoint as the records that rebuild it. */
function recordsOf(checkpoint: Checkpoint | undefined): CheckpointRecord[] {
  if (!checkpoint) return [];
  const records: CheckpointRecord[] = [];
  for (const [window, known] of checkpoint.windows) {
    records.push({
      type: "intent",
      window,
      firstRow: 0,
      count: known.count,
      ...(known.sent === undefined ? {} : { sent: known.sent }),
    });
    if (known.groupId !== undefined)
      records.push({ type: "group", window, groupId: known.groupId });
  }
  records.push({ type: "written", rows: checkpoint.writtenRows, counts: checkpoint.counts });
  if (checkpoint.outcome) {
    records.push({ type: "end", outcome: checkpoint.outcome, rows: checkpoint.writtenRows });
  }
  return records;
}
