import type { FinishedJobRow, ResultWriter } from "spellrun";
import { CANCELLED_STATUS, statusText } from "./statusText.js";
import type { RowWrite } from "./RowWrite.js";
import type { WriteReport } from "./WriteReport.js";
import { writeOutputs } from "./writeOutputs.js";
import type { WriteTarget } from "./WriteTarget.js";

/**
 * The task pane's result writer for the core's bulk-job engine: each batch of finished rows in
 * one `writeOutputs` call (one read to check the rows' inputs and where the block is now, one
 * write sync). A row is found by its fingerprint, as the pane's writes always are: a row whose
 * inputs changed is marked stale, one found nowhere is reported lost (`onReport`), never written
 * elsewhere. A cancelled row gets the cancelled mark whatever its inputs hold now. `onReport` is
 * awaited before the write counts as done (the pane keeps lost results and moved rows there).
 *
 * ## Example
 * ```ts
 * const writer = new SheetResultWriter(writeTargetOf(job, "rows"), (report) => keep(report.lost));
 * ```
 */
export class SheetResultWriter<Row> implements ResultWriter<Row> {
  /**
   * @param target where the rows go; `target.rows[i]` and `target.fingerprints[i]` are row `i`'s
   * @param onReport told what each write did (stale and lost rows), with the rows it was given
   */
  constructor(
    private readonly target: WriteTarget,
    private readonly onReport: (
      report: WriteReport,
      rows: readonly FinishedJobRow<Row>[]
    ) => void | Promise<void> = () => undefined
  ) {}

  /** @param rows finished rows, in input order */
  async write(rows: readonly FinishedJobRow<Row>[]): Promise<void> {
    const results: RowWrite[] = rows.map((row) => ({
      run: row.index,
      row: this.target.rows?.[row.index] ?? -1,
      fingerprint: this.target.fingerprints?.[row.index] ?? "",
      status:
        row.status === "cancelled"
          ? CANCELLED_STATUS
          : row.status === "success" || row.status === "failure" || row.status === "error"
            ? statusText({ state: row.status, outputs: row.outputs })
            : `${row.status}: ${String(row.outputs.error ?? "")}`,
      ...(row.status === "success" ? { outputs: row.outputs } : {}),
      ...(row.status === "cancelled" ? { checkInputs: false } : {}),
    }));
    await this.onReport(await writeOutputs(this.target, results), rows);
  }
}
