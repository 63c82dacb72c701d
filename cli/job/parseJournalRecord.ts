import type { JournalRecord } from "./JournalRecord.js";

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
  job: (r) =>
    r.version === 1 &&
    isText(r.spellId) &&
    isText(r.input) &&
    isText(r.output) &&
    isCount(r.chunkSize) &&
    (r.chunkSize as number) > 0 &&
    isText(r.baseUrl) &&
    isText(r.pollBaseUrl) &&
    typeof r.mapping === "object" &&
    r.mapping !== null,
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
  group: (r) => isCount(r.window) && isText(r.groupId),
  refused: (r) => isCount(r.window),
  written: (r) =>
    isCount(r.rows) &&
    isCount(r.bytes) &&
    (r.counts === undefined || (typeof r.counts === "object" && r.counts !== null)),
  end: (r) => isText(r.outcome) && isCount(r.rows),
};

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isText(value: unknown): boolean {
  return typeof value === "string" && value !== "";
}
