import { blockAddress, columnName } from "./a1Address.js";
import { STATUS_HEADER } from "./outputLayout.js";
import { PAYLOAD_BUDGET_BYTES, chunkByBytes, payloadBytes } from "./payloadBytes.js";
import {
  findStaleRows,
  inputFingerprint,
  readInputs,
  segments,
  typedDuringRun,
} from "./staleRows.js";
import { locateBlock, relocateRows } from "./trackedBlock.js";
import { STALE_STATUS } from "./statusText.js";
import { TEXT_FORMAT, toCellWrite } from "./toCellWrite.js";
import type { CellScalar } from "./toCellWrite.js";
import type { WriteTarget } from "./WriteTarget.js";
import { MAX_GAP_ROWS } from "./blockLimits.js";
import type { RowWrite } from "./RowWrite.js";
import type { WriteReport } from "./WriteReport.js";

/**
 * Writes a batch of finished rows: first one batched read of their input cells (rows whose
 * inputs changed since submission are marked stale and their outputs not written), then one
 * batched write of status and output cells, new output headers included.
 *
 * Syncs: 1 read + 1 write per call, unless the batch is larger than the payload budget, which
 * splits it. Rows are grouped into blocks of nearby rows; rows in a block that are not in the
 * batch get `null`, which Office leaves untouched. Text is written into Text-formatted cells
 * (number format set before the value), so `=…` stays text (see `toCellWrite`).
 *
 * ## Example
 * ```ts
 * await writeOutputs(target, [{ run: 0, row: 1, fingerprint, status: "success", outputs: { label: "positive" } }]);
 * ```
 */
export async function writeOutputs(
  target: WriteTarget,
  results: readonly RowWrite[],
  budgetBytes = PAYLOAD_BUDGET_BYTES
): Promise<WriteReport> {
  const first = await writeOnce(target, results, budgetBytes, false);
  if (first.retry.length === 0) return first.report;
  // Rows whose inputs changed between the check and the write were put back: written again
  // through the whole check (a moved record is found in its new row, an edited one marked stale).
  const second = await writeOnce(target, first.retry, budgetBytes, true);
  return {
    written: [...first.report.written, ...second.report.written],
    stale: [...first.report.stale, ...second.report.stale],
    lost: [...first.report.lost, ...second.report.lost],
    readSyncs: first.report.readSyncs + second.report.readSyncs,
    writeSyncs: first.report.writeSyncs + second.report.writeSyncs,
  };
}

/**
 * One pass of `writeOutputs`: check, write (with each written row's inputs read back in the same
 * sync), put back rows whose inputs no longer match. `lastTry`: such rows are marked stale
 * instead of being handed back in `retry`.
 */
async function writeOnce(
  target: WriteTarget,
  results: readonly RowWrite[],
  budgetBytes: number,
  lastTry: boolean
): Promise<{ report: WriteReport; retry: RowWrite[] }> {
  const report: WriteReport = { written: [], stale: [], lost: [], readSyncs: 0, writeSyncs: 0 };
  if (results.length === 0) return { report, retry: [] };

  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(target.sheet);
    // Where the block is now (the user may have inserted, deleted or sorted since the last write).
    if (target.blockName !== undefined) await locateBlock(context, sheet, target, report);
    const rows = target.blockName !== undefined ? target.rows : undefined;
    let placed: RowWrite[] = [];
    for (const result of results) {
      const row = rows && result.run >= 0 ? rows[result.run] : result.row;
      if (row >= 0) placed.push({ ...result, row });
      else report.lost.push(result.run);
    }
    // Sorted by row: the checks and writes group neighbouring rows (after a sort, run order is not
    // row order).
    placed.sort((a, b) => a.row - b.row);
    let stale = await findStaleRows(context, sheet, target, placed, budgetBytes, report);
    if (rows && target.fingerprints && stale.size > 0) {
      // Rows moved (sort, insert or delete inside the block) or were edited: find every run again
      // by its inputs; an edited row no run claims gets the stale mark, a run found nowhere is lost.
      const unclaimed = await relocateRows(context, sheet, target, report, budgetBytes);
      const next: RowWrite[] = [];
      stale = new Set();
      for (const result of placed) {
        const row = rows[result.run];
        if (row >= 0) next.push({ ...result, row });
        else if (result.checkInputs !== false && unclaimed.has(result.row)) {
          next.push(result);
          stale.add(result.run);
        } else report.lost.push(result.run);
      }
      placed = next;
    }
    const sorted = placed.sort((a, b) => a.row - b.row);
    for (const result of sorted) {
      if (stale.has(result.run)) continue;
      for (const name of Object.keys(result.outputs ?? {})) target.layout.columnOf(name);
    }

    const writes: Array<{
      address: string;
      values: (CellScalar | null)[][];
      formats: (string | null)[][];
      /** The rows written with outputs or a status that depends on their inputs (checked). */
      checked?: { top: number; rows: RowWrite[] };
    }> = [];
    const { layout } = target;
    // Outputs that need columns beyond the run's own: insert whole new columns there, in the
    // same sync as (and before) the writes, so the user's cells move right and are never written.
    const owned = target.ownedWidth ?? layout.width;
    if (layout.width > owned) {
      const from = columnName(layout.statusColumn + owned);
      const to = columnName(layout.statusColumn + layout.width - 1);
      sheet.getRange(`${from}:${to}`).insert("Right");
    }
    const headerKey = [layout.statusColumn, ...layout.names.map((n) => layout.columnOf(n))].join();
    if (target.headerKey !== headerKey && sorted.length > 0) {
      // Status header and one header per output at its column; columns between are left alone.
      const header: (CellScalar | null)[] = new Array(layout.width).fill(null);
      const formats: (string | null)[] = new Array(layout.width).fill(null);
      const put = (offset: number, name: string) => {
        const cell = toCellWrite(name);
        header[offset] = cell.value;
        formats[offset] = cell.numberFormat;
      };
      put(0, STATUS_HEADER);
      for (const name of layout.names) put(layout.columnOf(name) - layout.statusColumn, name);
      writes.push({
        address: blockAddress({
          top: target.headerRow,
          left: layout.statusColumn,
          rowCount: 1,
          columnCount: layout.width,
        }),
        values: [header],
        formats: [formats],
      });
    }
    const writeBytes = (result: RowWrite) =>
      64 +
      payloadBytes(result.status) +
      payloadBytes(Object.values(result.outputs ?? {})) +
      12 * layout.width;
    for (const segment of segments(sorted, MAX_GAP_ROWS, writeBytes, budgetBytes)) {
      const first = segment[0].row;
      const rowCount = segment[segment.length - 1].row - first + 1;
      const values: (CellScalar | null)[][] = Array.from({ length: rowCount }, () =>
        new Array(layout.width).fill(null)
      );
      const formats: (string | null)[][] = Array.from({ length: rowCount }, () =>
        new Array(layout.width).fill(null)
      );
      for (const result of segment) {
        const r = result.row - first;
        const isStale = stale.has(result.run);
        values[r][0] = isStale ? STALE_STATUS : result.status;
        formats[r][0] = TEXT_FORMAT;
        (isStale ? report.stale : report.written).push(result.run);
        if (isStale || !result.outputs) continue;
        for (const [name, output] of Object.entries(result.outputs)) {
          const c = layout.columnOf(name) - layout.statusColumn;
          const cell = toCellWrite(output);
          values[r][c] = cell.value;
          formats[r][c] = cell.numberFormat;
        }
      }
      const checked = segment.filter(
        (result) => !stale.has(result.run) && result.checkInputs !== false
      );
      writes.push({
        address: blockAddress({
          top: first,
          left: layout.statusColumn,
          rowCount,
          columnCount: layout.width,
        }),
        values,
        formats,
        ...(checked.length > 0 && target.inputColumns.length > 0
          ? { checked: { top: first, rows: checked } }
          : {}),
      });
    }

    const mismatched: Array<{ result: RowWrite; before: RowImage }> = [];
    const typed: Array<{ result: RowWrite; before: RowImage }> = [];
    for (const [start, end] of chunkByBytes(
      writes.length,
      // Twice the cells: the response carries what was there before, and the inputs read back.
      (i) => 2 * (payloadBytes(writes[i].values) + payloadBytes(writes[i].formats)),
      budgetBytes
    )) {
      const checks = writes.slice(start, end).map((write) => {
        // What was there, read in the same sync before the write (a batch runs in order).
        const before = write.checked
          ? sheet.getRange(write.address).load("formulas, numberFormat")
          : undefined;
        const range = sheet.getRange(write.address);
        // Format first: Excel parses a value by the cell's format at the moment it is written.
        range.numberFormat = write.formats as string[][];
        range.values = write.values as CellScalar[][];
        // The written rows' inputs, read in the same sync after the write: a result written
        // beside another record (an edit between the check and this sync) is seen at once.
        const inputs = write.checked && readInputs(sheet, target, write.checked);
        return { write, before, inputs };
      });
      report.writeSyncs++;
      // Usually one pass; more only when one batch would exceed Office's payload limit.
      // eslint-disable-next-line office-addins/no-context-sync-in-loop
      await context.sync();
      for (const { write, before, inputs } of checks) {
        if (!write.checked || !before || !inputs) continue;
        for (const result of write.checked.rows) {
          const r = result.row - write.checked.top;
          const formulas = before.formulas[r] as CellScalar[];
          if (
            typedDuringRun(target, result, formulas, write.values[result.row - write.checked.top])
          ) {
            typed.push({
              result,
              before: { formulas, formats: before.numberFormat[r] as string[] },
            });
            continue;
          }
          if (inputFingerprint(target, inputs, r) === result.fingerprint) continue;
          mismatched.push({
            result,
            before: {
              formulas: before.formulas[r] as CellScalar[],
              formats: before.numberFormat[r] as string[],
            },
          });
        }
      }
    }
    const retry: RowWrite[] = [];
    if (typed.length > 0) {
      // Cells the user typed into during the run: put back, and the result kept, never written.
      for (const { result, before } of typed) {
        const range = sheet.getRange(
          blockAddress({
            top: result.row,
            left: layout.statusColumn,
            rowCount: 1,
            columnCount: before.formulas.length,
          })
        );
        range.numberFormat = [before.formats];
        range.formulas = [before.formulas];
        const written = report.written.indexOf(result.run);
        if (written >= 0) report.written.splice(written, 1);
        report.lost.push(result.run);
      }
      if (mismatched.length === 0) {
        report.writeSyncs++;
        await context.sync();
      }
    }
    if (mismatched.length > 0) {
      // Put back what was there, in one sync; the row is written again (`retry`) or marked stale.
      for (const { result, before } of mismatched) {
        const range = sheet.getRange(
          blockAddress({
            top: result.row,
            left: layout.statusColumn,
            rowCount: 1,
            columnCount: before.formulas.length,
          })
        );
        const mark = lastTry || !target.fingerprints;
        range.numberFormat = [mark ? [TEXT_FORMAT, ...before.formats.slice(1)] : before.formats];
        range.formulas = [mark ? [STALE_STATUS, ...before.formulas.slice(1)] : before.formulas];
        const written = report.written.indexOf(result.run);
        if (written >= 0) report.written.splice(written, 1);
        if (mark) report.stale.push(result.run);
        else retry.push(result);
      }
      report.writeSyncs++;
      await context.sync();
    }
    target.headersWritten = layout.width;
    if (sorted.length > 0) target.headerKey = headerKey;
    target.ownedWidth = Math.max(owned, layout.width);
    return { report, retry };
  });
}

/** A row's status and output cells as they were before a write (formulas keep formulas). */
interface RowImage {
  formulas: CellScalar[];
  formats: string[];
}
