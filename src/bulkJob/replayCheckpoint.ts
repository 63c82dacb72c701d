import type { Checkpoint } from "./CheckpointStore.js";
import type { CheckpointRecord } from "./CheckpointRecord.js";

/**
 * Rebuilds a job's checkpoint from its records. Later records win (a window sent again after a
 * refusal has a second intent). Records of other types are skipped, so a store may interleave
 * its own.
 *
 * ## Example
 * ```ts
 * const checkpoint = replayCheckpoint([{ type: "intent", window: 0, firstRow: 0, count: 5, sent: 5 }]);
 * checkpoint.windows.get(0); // { count: 5, sent: 5 }
 * ```
 * @param records the records, oldest first
 * @return the checkpoint
 */
export function replayCheckpoint(records: Iterable<{ type: string }>): Checkpoint {
  const checkpoint: Checkpoint = { writtenRows: 0, counts: {}, windows: new Map() };
  for (const record of records as Iterable<CheckpointRecord>) {
    switch (record.type) {
      case "intent":
        checkpoint.windows.set(record.window, {
          count: record.count,
          ...(record.sent === undefined || record.sent === record.count
            ? {}
            : { sent: record.sent }),
          ...(typeof record.fingerprint === "string" ? { fingerprint: record.fingerprint } : {}),
        });
        checkpoint.outcome = undefined;
        break;
      case "group": {
        const window = checkpoint.windows.get(record.window);
        if (window) {
          // "": a chunk intent recorded before any group of the window was named.
          if (record.groupId !== "") window.groupId = record.groupId;
          // Without a token the group id rebuilds it: an earlier chunk intent's token is stale.
          if (record.token) window.token = record.token;
          else delete window.token;
        }
        break;
      }
      case "refused": {
        const window = checkpoint.windows.get(record.window);
        checkpoint.windows.delete(record.window);
        if (window?.fingerprint !== undefined) {
          checkpoint.refused ??= new Map();
          checkpoint.refused.set(record.window, {
            count: window.count,
            fingerprint: window.fingerprint,
          });
        }
        break;
      }
      case "written":
        checkpoint.writtenRows = record.rows;
        checkpoint.counts = { ...record.counts };
        if (record.alsoWritten && record.alsoWritten.length > 0) {
          checkpoint.alsoWritten = [...record.alsoWritten];
        } else delete checkpoint.alsoWritten;
        break;
      case "end":
        checkpoint.outcome = record.outcome;
        break;
      default:
        break;
    }
  }
  return checkpoint;
}
