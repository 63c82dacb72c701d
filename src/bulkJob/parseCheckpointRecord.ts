import type { BulkResumeToken } from "../types.js";
import type { CheckpointRecord } from "./CheckpointRecord.js";
import type { JobOutcome } from "./CheckpointStore.js";
import { ROW_STATUSES } from "./RowResult.js";

/**
 * What `parseCheckpointRecord` made of a value: the record, or why it is not one.
 *
 * ## Example
 * ```ts
 * const parsed: ParsedCheckpointRecord = { ok: false, problem: "window is not a row index" };
 * ```
 */
export type ParsedCheckpointRecord =
  { ok: true; record: CheckpointRecord } | { ok: false; problem: string };

const OUTCOMES: readonly JobOutcome[] = [
  "complete",
  "incomplete",
  "interrupted",
  "input-error",
  "service-error",
  "write-error",
];

/**
 * Checks that a value (a parsed JSON line, a database row) is a record the engine writes
 * (`CheckpointRecord`): a known `type`, every required field, row indexes and counts as
 * non-negative safe integers, a window's rows where its number puts them (window `w` starts at
 * `w × windowSize` and holds at most `windowSize` rows), `sent` within the window, statuses and
 * outcomes the engine knows. Fields it does not know are kept, unchecked. A store that reads
 * records written elsewhere checks them with it before `replayCheckpoint`.
 *
 * ## Example
 * ```ts
 * parseCheckpointRecord(JSON.parse('{"type":"refused","window":2}')); // { ok: true, record }
 * parseCheckpointRecord({ type: "intent" }); // { ok: false, problem: "intent: window is …" }
 * ```
 * @param value the value to check
 * @return the record, or the first problem found
 */
export function parseCheckpointRecord(value: unknown): ParsedCheckpointRecord {
  if (!isObject(value)) return bad("not a JSON object");
  const type = value.type;
  const problem = typeof type === "string" ? problemOf(type, value) : "type is missing";
  return problem === undefined
    ? { ok: true, record: value as unknown as CheckpointRecord }
    : bad(
        typeof type === "string" && Object.hasOwn(CHECKS, type) ? `${type}: ${problem}` : problem
      );
}

const CHECKS: Record<string, (value: Record<string, unknown>) => string | undefined> = {
  intent: (value) => {
    const { window, firstRow, count, sent, fingerprint } = value;
    if (!isIndex(window)) return "window is not a row index (a non-negative integer)";
    if (!isIndex(firstRow)) return "firstRow is not a row index (a non-negative integer)";
    if (!isIndex(count) || count < 1) return "count is not a positive integer";
    if (window === 0 ? firstRow !== 0 : firstRow % window !== 0 || firstRow === 0) {
      return `firstRow ${firstRow} is not where window ${window} starts (window × windowSize)`;
    }
    if (window > 0 && count > firstRow / window) {
      return `count ${count} is more than the window size (${firstRow / window})`;
    }
    if (sent !== undefined && (!isIndex(sent) || sent > count)) {
      return "sent is not an integer from 0 to count";
    }
    if (fingerprint !== undefined && typeof fingerprint !== "string") {
      return "fingerprint is not a string";
    }
    return undefined;
  },
  group: (value) => {
    if (!isIndex(value.window)) return "window is not a row index (a non-negative integer)";
    if (typeof value.groupId !== "string") return "groupId is not a string";
    // "" only in a chunk intent recorded before any group was named, which has its token.
    if (value.groupId === "" && value.token === undefined) {
      return "groupId is empty in a record without a token";
    }
    return value.token === undefined ? undefined : tokenProblem(value.token);
  },
  refused: (value) =>
    isIndex(value.window) ? undefined : "window is not a row index (a non-negative integer)",
  written: (value) => {
    const { rows, counts, alsoWritten } = value;
    if (!isIndex(rows)) return "rows is not a non-negative integer";
    if (counts !== undefined) {
      const problem = countsProblem(counts);
      if (problem) return problem;
    }
    if (alsoWritten !== undefined) {
      if (!Array.isArray(alsoWritten) || !alsoWritten.every(isIndex)) {
        return "alsoWritten is not a list of row indexes";
      }
      for (let place = 0; place < alsoWritten.length; place++) {
        const row = alsoWritten[place] as number;
        if (row < rows || (place > 0 && row <= (alsoWritten[place - 1] as number))) {
          return "alsoWritten is not ascending rows past the first `rows`";
        }
      }
    }
    return undefined;
  },
  end: (value) => {
    if (!OUTCOMES.includes(value.outcome as JobOutcome)) return "outcome is not a job outcome";
    return isIndex(value.rows) ? undefined : "rows is not a non-negative integer";
  },
};

function problemOf(type: string, value: Record<string, unknown>): string | undefined {
  const check = Object.hasOwn(CHECKS, type) ? CHECKS[type] : undefined;
  return check ? check(value) : `type ${JSON.stringify(type.slice(0, 20))} is not a record type`;
}

function countsProblem(counts: unknown): string | undefined {
  if (!isObject(counts)) return "counts is not an object";
  for (const [status, count] of Object.entries(counts)) {
    if (!(ROW_STATUSES as readonly string[]).includes(status)) {
      return "counts has a status that is not a row status";
    }
    if (!isIndex(count)) return `counts.${status} is not a non-negative integer`;
  }
  return undefined;
}

function tokenProblem(token: unknown): string | undefined {
  if (!isObject(token)) return "token is not an object";
  const { spellId, groupIds, chunkSizes, rows, mayHaveSent } = token as Partial<
    Record<keyof BulkResumeToken, unknown>
  >;
  if (typeof spellId !== "string") return "token.spellId is not a string";
  if (!Array.isArray(groupIds) || !groupIds.every((id) => typeof id === "string")) {
    return "token.groupIds is not a list of strings";
  }
  if (!Array.isArray(chunkSizes) || !chunkSizes.every(isIndex)) {
    return "token.chunkSizes is not a list of non-negative integers";
  }
  if (
    rows !== undefined &&
    (!Array.isArray(rows) || !rows.every((row) => row === -1 || isIndex(row)))
  ) {
    return "token.rows is not a list of run indexes";
  }
  if (mayHaveSent !== undefined && !isIndex(mayHaveSent)) {
    return "token.mayHaveSent is not a non-negative integer";
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function bad(problem: string): ParsedCheckpointRecord {
  return { ok: false, problem };
}
