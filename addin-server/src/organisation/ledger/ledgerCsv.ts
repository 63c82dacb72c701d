import type { SqlDatabase } from "./SqlDatabase";

const COLUMNS = [
  "id",
  "started_at",
  "user_id",
  "user_name",
  "groups",
  "endpoint",
  "spell_id",
  "runs",
  "status",
  "run_id",
  "refunded",
  "replays",
] as const;

/**
 * The ledger's rows between two days (inclusive) as CSV (RFC 4180, every field quoted; a field
 * starting with `=`, `+`, `-`, `@`, tab or return gets a leading `'` so a spreadsheet shows it as
 * text instead of running it as a formula).
 *
 * ## Example
 * ```ts
 * reply.type("text/csv").send(await ledgerCsv(database, "2026-11-01", "2026-11-30"));
 * ```
 *
 * @param database The ledger's database.
 * @param from First day, `YYYY-MM-DD`.
 * @param to Last day, `YYYY-MM-DD`.
 * @return The CSV text, a header line first.
 */
export async function ledgerCsv(
  database: Pick<SqlDatabase, "query">,
  from: string,
  to: string
): Promise<string> {
  const rows = await database.query<Record<(typeof COLUMNS)[number], unknown>>(
    `SELECT id::text, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
            user_id, user_name, array_to_string(groups, ';') AS groups, endpoint, spell_id, runs,
            status, run_id, refunded, replays
     FROM usage_ledger WHERE day BETWEEN $1 AND $2 ORDER BY id`,
    [from, to]
  );
  const lines = [COLUMNS.join(",")];
  for (const row of rows) lines.push(COLUMNS.map((column) => csvField(row[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}
