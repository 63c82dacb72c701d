/** `context.sync()` of the mock: applies a batch's queued operations in order, as Excel would. */
import type { OfficeMockObject } from "office-addin-mock";
import { blockAddress } from "./a1.js";
import { payloadBytes } from "../../taskpane/sheet/payloadBytes.js";
import { applyWrite, readBlock } from "./cellGrid.js";
import { fillLoaded, quoteSheet } from "./mockRanges.js";
import { MockOfficeError } from "./MockOfficeError.js";
import type { MockWorkbook } from "./mockWorkbook.js";
import { supportsExcelApi } from "./supportsExcelApi.js";
import type { SyncOperation } from "./syncOperation.js";
import type { WorkbookState } from "./workbookState.js";

/**
 * Sends a batch: checks the request and response payload limits, applies the queued operations
 * in order, counts the sync and calls the workbook's `beforeSync` / `afterSync` hooks.
 */
export async function syncQueue(
  workbook: MockWorkbook,
  state: WorkbookState,
  queue: SyncOperation[]
): Promise<void> {
  workbook.beforeSync?.({
    syncNumber: workbook.stats.syncs + 1,
    writes: queue.flatMap((op) =>
      op.kind === "write" ? [`${quoteSheet(op.sheet)}!${blockAddress(op.block)}`] : []
    ),
  });
  const started = performance.now();
  workbook.stats.syncs++;
  const operations = queue.splice(0, queue.length);
  const requestBytes = operations.reduce(
    (sum, op) => sum + (op.kind === "write" ? payloadBytes(op.data) : 64),
    0
  );
  workbook.stats.maxRequestBytes = Math.max(workbook.stats.maxRequestBytes, requestBytes);
  if (requestBytes > workbook.payloadLimitBytes) {
    throw new MockOfficeError(
      "RequestPayloadSizeLimitExceeded",
      `Request of ${requestBytes} bytes`
    );
  }
  let wrote = false;
  const wroteTo = new Set<string>();
  let read = false;
  let responseBytes = 0;
  const loaded: OfficeMockObject[] = [];
  for (const op of operations) {
    if (op.kind === "fail") throw new MockOfficeError(op.code, op.message);
    if (op.kind === "requireSheet") {
      if (!state.sheets.has(op.name)) {
        throw new MockOfficeError("ItemNotFound", `No sheet named ${op.name}`);
      }
      continue;
    }
    if (op.kind === "addSheet") {
      wrote = true;
      wroteTo.add(op.name);
      workbook.addSheet(op.name);
      continue;
    }
    if (op.kind === "visibility") {
      wrote = true;
      wroteTo.add(op.name);
      state.visibility.set(op.name, op.visibility);
      continue;
    }
    if (op.kind === "write") {
      wrote = true;
      wroteTo.add(op.sheet);
      applyWrite(state, op.sheet, op.block, op.property, op.data);
      workbook.onCellsChanged?.({ sheet: op.sheet, block: op.block });
    } else if (op.kind === "lookup") {
      read = true;
      op.fill();
      loaded.push(op.target);
    } else if (op.kind === "name") {
      wrote = true;
      if (op.target)
        state.names.set(op.name, { sheet: op.target.sheet, block: { ...op.target.block } });
      else state.names.delete(op.name);
    } else if (op.kind === "calculateRange") {
      if (!supportsExcelApi(workbook.excelApiVersion, "1.6")) {
        throw new MockOfficeError("ApiNotFound", "Range.calculate needs ExcelApi 1.6");
      }
      workbook.rangeCalculations.push(`${op.sheet}!${blockAddress(op.block)}`);
      // The formulas there are calculated afresh (the playground's engine calls them again).
      const range = { sheet: op.sheet, block: op.block };
      if (workbook.onRecalculate) workbook.onRecalculate(range);
      else workbook.onCellsChanged?.(range);
    } else if (op.kind === "delete") {
      // Whole columns or rows only (what the add-in deletes): the cells beyond move back.
      wrote = true;
      if (op.shift === "Left")
        workbook.deleteColumns(op.sheet, op.block.left, op.block.columnCount);
      else workbook.deleteRows(op.sheet, op.block.top, op.block.rowCount);
    } else if (op.kind === "insert") {
      wrote = true;
      if (op.shift === "Right")
        workbook.insertColumns(op.sheet, op.block.left, op.block.columnCount);
      else workbook.insertRows(op.sheet, op.block.top, op.block.rowCount);
    } else if (op.kind === "load") {
      read = true;
      for (const property of op.properties) {
        if (!["values", "formulas", "numberFormat", "text", "cellAddresses"].includes(property)) {
          continue;
        }
        const data = readBlock(state, op.sheet, op.block, property);
        responseBytes += payloadBytes(data);
        fillLoaded(op.target, property, data);
      }
      loaded.push(op.target);
    } else {
      workbook.calculations.push(op.calculationType);
    }
  }
  workbook.stats.maxResponseBytes = Math.max(workbook.stats.maxResponseBytes, responseBytes);
  if (responseBytes > workbook.payloadLimitBytes) {
    throw new MockOfficeError(
      "ResponsePayloadSizeLimitExceeded",
      `Response of ${responseBytes} bytes`
    );
  }
  const onlyHidden =
    wroteTo.size > 0 && [...wroteTo].every((sheet) => state.visibility.get(sheet) === "VeryHidden");
  if (wrote && onlyHidden) workbook.stats.hiddenWriteSyncs++;
  else if (wrote) workbook.stats.writeSyncs++;
  if (read) workbook.stats.readSyncs++;
  if (wrote) workbook.onDocumentChanged?.();
  // office-addin-mock's sync does its work before its first await; timed without the awaits,
  // which would let other tasks' time into the mock's share.
  const settled = loaded.map((target) => target.sync());
  workbook.stats.mockMs += performance.now() - started;
  await Promise.all(settled);
  workbook.afterSync?.(workbook.stats.syncs);
}
