import { serviceAddresses } from "../addin/serviceRoute.js";
import { tap, type Subscription } from "rxjs";
import { hashText } from "../addin/hashText.js";
import { refundStart, spendingGate } from "../addin/spendingGate.js";
import { startRefused } from "../addin/spending/startRefused.js";
import { SpellRunError, type BulkSnapshot } from "spellrun";
import { excelError } from "./excelError.js";
import { isInValuePreview } from "./isInValuePreview.js";
import { parseOutputNames } from "./parseOutputNames.js";
import { parseSpellId } from "./parseSpellId.js";
import { parseTable } from "./parseTable.js";
import { sharedClientWithSettings } from "../addin/sharedClient.js";
import { toCellValue } from "./toCellValue.js";
import { toExcelError, type ErrorContext } from "./toExcelError.js";
import { unknownOutputError } from "./unknownOutputError.js";

/**
 * What `SPELL.BULK` shows in the formula value preview: the preview never starts a bulk run.
 *
 * ## Example
 * ```ts
 * bulkSpell("echo", table, null, { isInValuePreview: true, setResult: (value) => show(value) });
 * ```
 */
export const BULK_PREVIEW_TEXT = "SPELL.BULK runs when you press Enter";

type SpillRow =
  | { kind: "blank" }
  | { kind: "running" }
  | { kind: "success"; outputs: Record<string, unknown> }
  | { kind: "failed"; error: CustomFunctions.Error };

/**
 * `=SPELL.BULK(spell_id, table, [outputs])`: one bulk run for the whole table, streamed into a
 * spilled array that fills row by row as runs finish. The spill has a header row of output names
 * (beside the table's row of input names) and one row of outputs per table row.
 *
 * Cells of rows still running show `#N/A` ("Still running"), so formulas over the spill never
 * compute on a partial result as if it were final; failed rows show `#N/A` with the reason; empty
 * table rows stay empty and start nothing. Rows remembered from earlier runs, and repeated rows,
 * are not sent again; rows already going when the add-in was reloaded are watched again, not
 * sent again. Nothing is shown until the first row is known (Excel shows `#BUSY!`).
 * The runs it would send count against the workbook's spending guard as that many new runs:
 * beyond the threshold nothing is sent and the cell shows `#N/A` ("Waiting for your OK") until
 * the user decides in the task pane, which then recalculates it.
 * When Excel cancels the call, the bulk run is cancelled (one cancelBulk).
 *
 * ## Example
 * ```ts
 * bulkSpell("translate", [["text", "language"], ["Hello", "fr"]], null, invocation);
 * ```
 *
 * @param spellIdArgument The spell ID.
 * @param tableArgument Input names over one row per run.
 * @param outputsArgument Output name(s) to show; `null` for all.
 * @param invocation Excel's streaming invocation.
 */
export function bulkSpell(
  spellIdArgument: unknown,
  tableArgument: unknown,
  outputsArgument: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>
): void {
  void streamBulk(spellIdArgument, tableArgument, outputsArgument, invocation);
}

/**
 * `bulkSpell` as a promise that settles once the spill is final or the call was cancelled
 * (for specs and benchmarks; Excel needs the `void` form).
 *
 * ## Example
 * ```ts
 * await streamBulk("echo", [["a"], [1], [2]], null, invocation);
 * ```
 *
 * @param spellIdArgument The spell ID.
 * @param tableArgument Input names over one row per run.
 * @param outputsArgument Output name(s) to show; `null` for all.
 * @param invocation Excel's streaming invocation.
 */
export async function streamBulk(
  spellIdArgument: unknown,
  tableArgument: unknown,
  outputsArgument: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>
): Promise<void> {
  let cancelled = false;
  let subscription: Subscription | undefined;
  let finish = () => {};
  // Set first, so a cancel while the settings load is not missed.
  invocation.onCanceled = () => {
    cancelled = true;
    subscription?.unsubscribe();
    finish();
  };
  let context: ErrorContext = {};
  try {
    const spellId = parseSpellId(spellIdArgument);
    context = { spellId };
    const table = parseTable(tableArgument);
    const names = parseOutputNames(outputsArgument);
    if (isInValuePreview(invocation)) {
      invocation.setResult([[BULK_PREVIEW_TEXT]]);
      return;
    }
    const { client, settings } = await sharedClientWithSettings();
    context = { spellId, baseUrl: serviceAddresses(settings).baseUrl, apiKey: settings.apiKey };

    if (cancelled) return;
    const show = spillWriter(invocation, names);
    // Empty table rows stay empty and start nothing; the others go to one bulk, where the core
    // answers remembered rows from the store and sends identical rows once (the rule batched
    // SPELL.RUN follows too).
    const rows: number[] = [];
    table.forEach((inputs, row) => {
      if (inputs) rows.push(row);
    });
    const results: SpillRow[] = table.map((inputs) =>
      inputs ? { kind: "running" } : { kind: "blank" }
    );
    if (rows.length === 0) {
      show(results, true);
      return;
    }
    const inputsList = rows.map((row) => table[row] as Record<string, unknown>);
    const address = invocation.address;
    // The runs the gate counted, and the last snapshot (its resume token names the chunks that
    // started), to give back the runs of a refused chunk.
    let charged = 0;
    let last: BulkSnapshot | undefined;
    await new Promise<void>((resolve) => {
      finish = resolve;
      subscription = client
        .bulk(spellId, inputsList, {
          reuse: true,
          // Asked by the core with the runs it will really send (remembered rows and repeats left
          // out). The bulk's key is its spell and rows, so "allow these" lets this very bulk start
          // once.
          beforeStart: (runs) =>
            spendingGate({
              by: "formula",
              spellId,
              key: () =>
                `bulk ${hashText(client.reuseKey(spellId, { rows: inputsList })).toString(36)}`,
              runs,
              address,
              // Where the host cannot recalculate the cell, the pane streams it again from here.
              reinvoke: () =>
                void streamBulk(spellIdArgument, tableArgument, outputsArgument, invocation),
            }).pipe(tap(() => (charged = runs))),
        })
        .subscribe({
          next: (snapshot: BulkSnapshot) => {
            last = snapshot;
            snapshot.runs.forEach((run, index) => {
              results[rows[index]] = rowResult(run.state, run.outputs, context);
            });
            show(results);
          },
          error: (error: unknown) => {
            if (charged > 0 && startRefused(error)) {
              refundStart("formula", charged - startedRuns(last));
            }
            invocation.setResult(toExcelError(error, context));
            resolve();
          },
          complete: () => {
            show(results, true);
            resolve();
          },
        });
    });
  } catch (error) {
    if (!cancelled) invocation.setResult(toExcelError(error, context));
  }
}

function rowResult(
  state: string,
  outputs: Record<string, unknown>,
  context: ErrorContext
): SpillRow {
  if (state === "success") return { kind: "success", outputs };
  if (state === "failure" || state === "error") {
    return { kind: "failed", error: toExcelError(new SpellRunError(state, outputs), context) };
  }
  return { kind: "running" };
}

/**
 * Renders the rows into the spill and hands it to Excel when it changed. Nothing is shown before
 * the first row is known, so the cell keeps Excel's own `#BUSY!` until then.
 */
function spillWriter(
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>,
  names: string[] | undefined
): (results: SpillRow[], final?: boolean) => void {
  let lastSignature = "";
  return (results, final = false) => {
    const finished = results.filter(
      (row) => row.kind === "success" || row.kind === "failed"
    ).length;
    const active = results.filter((row) => row.kind !== "blank").length;
    if (finished === 0 && !final) return;
    const columns = names ?? outputColumns(results);
    if (columns.length === 0) columns.push("");
    const running = excelError("#N/A", `Still running (${finished} of ${active} rows finished).`);
    const spill: unknown[][] = [columns.slice()];
    for (const row of results) {
      if (row.kind === "blank") spill.push(columns.map(() => ""));
      else if (row.kind === "running") spill.push(columns.map(() => running));
      else if (row.kind === "failed") spill.push(columns.map(() => row.error));
      else spill.push(columns.map((name) => outputCell(row.outputs, name, names)));
    }
    const signature = JSON.stringify(spill, (_key, value: unknown) =>
      value && typeof value === "object" && "code" in value && !Array.isArray(value)
        ? `${String((value as CustomFunctions.Error).code)} ${String((value as CustomFunctions.Error).message)}`
        : value
    );
    if (signature === lastSignature) return;
    lastSignature = signature;
    invocation.setResult(spill);
  };
}

/** Without asked names: every output name seen, in table order, then the service's order. */
function outputColumns(results: SpillRow[]): string[] {
  const columns = new Set<string>();
  for (const row of results) {
    if (row.kind === "success") for (const name of Object.keys(row.outputs)) columns.add(name);
  }
  return [...columns];
}

function outputCell(
  outputs: Record<string, unknown>,
  name: string,
  asked: string[] | undefined
): unknown {
  if (Object.prototype.hasOwnProperty.call(outputs, name)) return toCellValue(outputs[name]);
  return asked ? unknownOutputError([name], Object.keys(outputs)) : "";
}

/**
 * The runs of the chunks whose bulkStart was answered (a group id in the resume token): they
 * started; the refused chunk and the chunks after it (never sent) did not.
 */
function startedRuns(snapshot: BulkSnapshot | undefined): number {
  const resume = snapshot?.resume;
  if (!resume) return 0;
  let runs = 0;
  for (let chunk = 0; chunk < resume.groupIds.length; chunk++) runs += resume.chunkSizes[chunk];
  return runs;
}
