import { parseArgs } from "node:util";
import { parseBudgets, type Budgets } from "./budgets/Budgets";
import { readFileSync } from "node:fs";
import { ledgerCsv } from "./ledger/ledgerCsv";
import { migrate } from "./ledger/migrations";
import { openDatabase } from "./ledger/openDatabase";
import { usageReport, type UsageReport } from "./ledger/usageReport";
import { readOrganisationConfig } from "./readOrganisationConfig";

/** The help of `spellrun-addin-server usage`. */
export const USAGE_COMMAND_HELP = `Usage: spellrun-addin-server usage --organisation <file> [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--csv]

Prints the organisation's usage from the ledger, as the /admin page shows it: runs per user,
group, spell and day, the remaining budgets and the kill switch; --csv prints the ledger's rows.
  --organisation <file>  the organisation mode's configuration  [SPELLRUN_ORG_CONFIG]
  --from, --to           first and last day (UTC)          [default: this month so far]
  --csv                  the ledger's rows as CSV instead`;

/**
 * `spellrun-addin-server usage`: the admin view on a terminal (see `USAGE_COMMAND_HELP`). Text
 * from the ledger is printed with control characters replaced, so a user name cannot drive the
 * terminal.
 *
 * ## Example
 * ```ts
 * await usageCommand(["--organisation", "/etc/spellrun/organisation.json", "--csv"], process.env, console.log);
 * ```
 *
 * @param argv The arguments after `usage`.
 * @param env The environment.
 * @param print Where lines go.
 */
export async function usageCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void
): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      organisation: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      csv: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return print(USAGE_COMMAND_HELP);
  const file = values.organisation ?? env.SPELLRUN_ORG_CONFIG;
  if (!file) throw new Error("Name the organisation's configuration: --organisation <file>.");
  for (const day of [values.from, values.to]) {
    if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      throw new Error(`--from and --to are days like 2026-11-01, got "${day}".`);
    }
  }
  const options = readOrganisationConfig(file);
  const budgets: Budgets = options.budgetsFile
    ? parseBudgets(readFileSync(options.budgetsFile, "utf8"), options.budgetsFile)
    : {};
  const database =
    typeof options.database === "string" ? await openDatabase(options.database) : options.database;
  try {
    await migrate(database);
    const report = await usageReport(database, budgets, {
      ...(values.from ? { from: values.from } : {}),
      ...(values.to ? { to: values.to } : {}),
    });
    if (values.csv) {
      print(terminalSafe((await ledgerCsv(database, report.from, report.to)).trimEnd()));
      return;
    }
    for (const line of reportLines(report)) print(line);
  } finally {
    await database.close();
  }
}

/**
 * The report as aligned text tables, control characters in names shown as `?`.
 *
 * @param report The usage report.
 * @return Its lines.
 */
export function reportLines(report: UsageReport): string[] {
  const lines = [
    `Usage from ${report.from} to ${report.to} (UTC). Kill switch: ${report.paused ? "ON (no runs start)" : "off"}.`,
  ];
  const table = (title: string, header: string[], rows: (string | number)[][]) => {
    lines.push("", title);
    const all = [header, ...rows.map((row) => row.map(String))];
    const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]!.length)));
    for (const row of all)
      lines.push(
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join("  ")
          .trimEnd()
      );
    if (rows.length === 0) lines.push("(none)");
  };
  table(
    "Remaining budgets",
    ["scope", "who", "period", "limit", "used", "remaining"],
    report.budgets.map((b) => [b.scope, b.subject, b.period, b.limit, b.used, b.remaining])
  );
  table(
    "Runs per user",
    ["user", "runs", "calls"],
    report.byUser.map((u) => [u.user, u.runs, u.calls])
  );
  table(
    "Runs per group",
    ["group", "runs"],
    report.byGroup.map((g) => [g.group, g.runs])
  );
  table(
    "Runs per spell",
    ["spell", "runs"],
    report.bySpell.map((s) => [s.spellId, s.runs])
  );
  table(
    "Runs per day",
    ["day", "runs"],
    report.byDay.map((d) => [d.day, d.runs])
  );
  return lines.map(terminalSafe);
}

/** Control characters (escape sequences, carriage returns) shown as `?`: data, never commands. */
function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "?");
}
