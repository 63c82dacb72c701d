import type { JournalRecord } from "./JournalRecord.js";
import { isInputReading } from "../table/InputReading.js";

/**
 * Parses and checks one journal line, one rule per record kind: a line that is not a record
 * this version wrote is refused (`undefined`), never half-trusted. The only place that turns
 * journal text into records, so that stricter trust rules go here and nowhere else.
 *
 * ## Example
 * ```ts
 * parseJournalRecord('{"type":"group","window":0,"groupId":"g-1"}'); // { type: "group", ... }
 * parseJournalRecord('{"type":"group","window":-1}'); // undefined
 * ```
 * @param line one line of the journal, without its newline
 * @return the record, or undefined when the line is not a valid record
 */
export function parseJournalRecord(line: string): JournalRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const check = RECORD_CHECKS[String(record.type)];
  return check?.(record) ? (record as unknown as JournalRecord) : undefined;
}

const RECORD_CHECKS: Record<string, (record: Record<string, unknown>) => boolean> = {
  // Every field of the job record, with its type and bounds: a journal is a file anyone may have
  // edited, and this record decides what is read, where rows go and how many runs start.
  job: (r) =>
    r.version === 1 &&
    isText(r.spellId) &&
    isText(r.input) &&
    isText(r.output) &&
    isFormat(r.inputFormat) &&
    isFormat(r.outputFormat) &&
    (r.reading === undefined || isInputReading(r.reading)) &&
    isCount(r.chunkSize) &&
    (r.chunkSize as number) > 0 &&
    (r.chunkSize as number) <= MAX_CHUNK_SIZE &&
    isMapping(r.mapping) &&
    typeof r.csvGuard === "boolean" &&
    (r.columns === undefined || isTextList(r.columns)) &&
    isText(r.baseUrl) &&
    isText(r.pollBaseUrl) &&
    (r.authHeader === "authorization" || r.authHeader === "x-api-key") &&
    (r.total === undefined || isCount(r.total)) &&
    (r.inputFingerprint === undefined || isFingerprint(r.inputFingerprint)) &&
    (r.retryOf === undefined || isText(r.retryOf)) &&
    (r.retryUnknown === undefined || typeof r.retryUnknown === "boolean"),
  layout: (r) =>
    typeof r.layout === "object" &&
    r.layout !== null &&
    Array.isArray((r.layout as Record<string, unknown>).inputColumns) &&
    Array.isArray((r.layout as Record<string, unknown>).outputNames) &&
    isCount(r.headerBytes),
  intent: (r) =>
    isCount(r.window) &&
    isCount(r.firstRow) &&
    isCount(r.count) &&
    (r.sent === undefined || isCount(r.sent)),
  group: (r) =>
    isCount(r.window) &&
    // "" only in a chunk intent recorded before any group was named, which has its token.
    (isText(r.groupId) || (r.groupId === "" && r.token !== undefined)) &&
    (r.token === undefined || isToken(r.token)),
  refused: (r) => isCount(r.window),
  written: (r) =>
    isCount(r.rows) &&
    isCount(r.bytes) &&
    (r.counts === undefined || (typeof r.counts === "object" && r.counts !== null)),
  end: (r) =>
    isText(r.outcome) &&
    isCount(r.rows) &&
    (r.stop === undefined || r.stop === "budget") &&
    (r.inputRowsAtLeast === undefined || isCount(r.inputRowsAtLeast)),
};

/** Rows per bulk run a journal may claim: far above any real chunk, far below a memory bomb. */
const MAX_CHUNK_SIZE = 1_000_000;

function isFingerprint(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { size, mtimeMs, sha256 } = value as Record<string, unknown>;
  return (
    isCount(size) && isCount(mtimeMs) && typeof sha256 === "string" && /^[0-9a-f]{64}$/.test(sha256)
  );
}

/**
 * A resume token of several groups (a window sent in smaller bulk runs, `--chunk-size`), or a
 * chunk intent's (`mayHaveSent`; `""` for a chunk that may have been sent without its group).
 */
function isToken(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { spellId, groupIds, chunkSizes, rows, mayHaveSent } = value as Record<string, unknown>;
  return (
    isText(spellId) &&
    isTextList(groupIds) &&
    Array.isArray(chunkSizes) &&
    chunkSizes.every(isCount) &&
    // The groups named so far: a prefix of the chunks.
    (groupIds as string[]).length <= chunkSizes.length &&
    chunkSizes.length <= MAX_CHUNK_SIZE &&
    (rows === undefined ||
      (Array.isArray(rows) &&
        rows.every((row) => Number.isSafeInteger(row) && (row as number) >= -1))) &&
    // A chunk intent's: the chunks that may have been sent.
    (mayHaveSent === undefined ||
      (isCount(mayHaveSent) && (mayHaveSent as number) <= chunkSizes.length))
  );
}

function isFormat(value: unknown): boolean {
  return value === "csv" || value === "tsv" || value === "jsonl";
}

function isTextList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isMapping(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { only, rename } = value as Record<string, unknown>;
  if (only !== undefined && !isTextList(only)) return false;
  if (typeof rename !== "object" || rename === null || Array.isArray(rename)) return false;
  return Object.values(rename).every((name) => typeof name === "string");
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isText(value: unknown): boolean {
  return typeof value === "string" && value !== "";
}
