import type { BulkJob } from "../storedJob/BulkJob.js";
import { dateInputValue } from "../sheet/dateInputValue.js";
import { readRowInputs } from "../sheet/readRowInputs.js";
import type { SelectionData } from "../sheet/readSelection.js";
import { rowFingerprint } from "../sheet/rowFingerprint.js";
import type { WriteTarget } from "../sheet/WriteTarget.js";
import type { RowCells } from "./jobCells.js";
import type { BulkPlan } from "./planBulk.js";

/**
 * The job of a new bulk over the planned rows of a selection (nothing stored or sent yet).
 *
 * ## Example
 * ```ts
 * const job = newBulkJob(selection, plan, "summarize", blockName(), Date.now());
 * ```
 *
 * @param selection What Use selection read.
 * @param plan The rows to run and where results go.
 * @param spellId The spell.
 * @param name The job's id and the name of its block.
 * @param now When it starts.
 * @return The job.
 */
export function newBulkJob(
  selection: SelectionData,
  plan: BulkPlan,
  spellId: string,
  name: string,
  now: number
): BulkJob {
  const { block } = selection;
  return {
    id: name,
    blockName: name,
    inputHeaders: plan.inputs.map((input) => String(selection.headers[input.column]).trim()),
    version: 1,
    spellId,
    sheet: selection.sheet,
    sheetId: selection.sheetId,
    headerRow: block.top,
    rows: plan.rows.map((row) => block.top + 1 + row.offset),
    inputColumns: plan.inputs.map((input) => block.left + input.column),
    inputNames: plan.inputs.map((input) => input.inputName),
    fingerprints: plan.rows.map((row) => row.fingerprint),
    statusColumn: plan.statusColumn,
    outputNames: plan.insertColumns ? [] : [...selection.existing.outputNames],
    ownedWidth: plan.ownedWidth,
    handled: [],
    startedAt: now,
  };
}

/**
 * The job of a "Retry failed rows": the given rows of the last job with their inputs as they are
 * now (rows left blank since are dropped), written where the last job wrote.
 *
 * ## Example
 * ```ts
 * const { retry, inputsList, kept } = await retryBulkJob(job, [3, 7], target, Date.now());
 * ```
 *
 * @param job The last job.
 * @param rows The absolute rows to run again.
 * @param target Where the last job wrote (its layout and owned columns).
 * @param now When it starts.
 * @return The job, its inputs per run, and its input cells per run.
 */
export async function retryBulkJob(
  job: BulkJob,
  rows: number[],
  target: WriteTarget,
  now: number
): Promise<{ retry: BulkJob; inputsList: Record<string, unknown>[]; kept: RowCells[] }> {
  const inputs = await readRowInputs(job.sheetId ?? job.sheet, rows, job.inputColumns);
  const kept = rows
    .map((row, i) => ({ row, values: inputs.values[i], formats: inputs.formats[i] }))
    .filter(({ values }) => values.some((value) => String(value).trim() !== ""));
  const retry: BulkJob = {
    ...job,
    rows: kept.map(({ row }) => row),
    fingerprints: kept.map(({ values }) => rowFingerprint(values)),
    outputNames: [...target.layout.names],
    ownedWidth: target.ownedWidth,
    token: undefined,
    windows: undefined,
    counts: undefined,
    expired: undefined,
    handled: [],
    startedAt: now,
  };
  // Date-formatted cells go as ISO 8601, as on Run; fingerprints stay over the raw values.
  const inputsList = kept.map(({ values, formats }) =>
    Object.fromEntries(
      job.inputNames.map((name, i) => [name, dateInputValue(values[i], formats[i])])
    )
  );
  return { retry, inputsList, kept };
}
