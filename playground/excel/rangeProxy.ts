/** The mock's `Excel.Range` and `RangeView` proxies. */
import { OfficeMockObject } from "office-addin-mock";
import { blockAddress, LAST_COLUMN, LAST_ROW } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { checkShape, lineAddress, loadList, quoteSheet } from "./mockRanges.js";
import type { MockWorkbook } from "./mockWorkbook.js";
import { MOCK_ERRORS, WRITABLE } from "./syncOperation.js";
import type { SyncOperation, WritableProperty } from "./syncOperation.js";
import { INVALID_ARGUMENT_MESSAGE } from "./MockOfficeError.js";
import { timed } from "./timed.js";
import type { WorkbookState } from "./workbookState.js";

/**
 * A range: an `OfficeMockObject` (load/sync discipline) wrapped so that writes are queued
 * instead of applied, and reads of unloaded or unsynced properties throw instead of returning
 * the mock's error text.
 */
export function rangeProxy(
  workbook: MockWorkbook,
  state: WorkbookState,
  queue: SyncOperation[],
  sheet: string,
  block: CellBlock
): Excel.Range {
  return timed(workbook.stats, () => createRangeProxy(workbook, state, queue, sheet, block));
}

function createRangeProxy(
  workbook: MockWorkbook,
  state: WorkbookState,
  queue: SyncOperation[],
  sheet: string,
  block: CellBlock
): Excel.Range {
  const target = new OfficeMockObject({
    address: `${quoteSheet(sheet)}!${lineAddress(block) ?? blockAddress(block)}`,
    rowCount: block.rowCount,
    columnCount: block.columnCount,
    // Filled in at sync time by `fillLoaded` (`null` would be taken for a nested object).
    values: undefined,
    formulas: undefined,
    numberFormat: undefined,
    text: undefined,
    worksheet: {
      name: sheet,
      id: state.sheetIds.get(sheet) ?? "",
      getUsedRangeOrNullObject: (valuesOnly?: boolean) => {
        const used = workbook.usedBlock(sheet, valuesOnly === true);
        const range = rangeProxy(
          workbook,
          state,
          queue,
          sheet,
          used ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 }
        );
        Reflect.set(range, "isNullObject", used === undefined);
        return range;
      },
    },
  });
  return new Proxy(target, {
    get: (object, property, receiver) => {
      if (property === "load") {
        return (argument: string | string[]) =>
          timed(workbook.stats, () => {
            const properties = loadList(argument);
            object.load(properties);
            queue.push({ kind: "load", target: object, sheet, block, properties });
            return receiver;
          });
      }
      if (property === "getSpillingToRangeOrNullObject") {
        return () => {
          const spill =
            block.rowCount === 1 && block.columnCount === 1
              ? state.spills.get(`${sheet}!${blockAddress(block)}`)
              : undefined;
          const range = rangeProxy(workbook, state, queue, sheet, spill ?? block);
          Reflect.set(range, "isNullObject", spill === undefined);
          return range;
        };
      }
      if (property === "_address") return `${quoteSheet(sheet)}!${blockAddress(block)}`;
      if (property === "getVisibleView") {
        return () => visibleView(queue, sheet, block);
      }
      // Office.js `Range.calculate()`: "Calculates a range of cells on a worksheet." (ExcelApi
      // 1.6): at sync, the formulas of the block are calculated again (their calls made anew).
      if (property === "calculate") {
        return () => {
          queue.push({ kind: "calculateRange", sheet, block });
        };
      }
      if (property === "insert") {
        return (shift: string) => {
          queue.push({ kind: "insert", sheet, block, shift });
        };
      }
      if (property === "delete") {
        return (shift: string) => {
          queue.push({ kind: "delete", sheet, block, shift });
        };
      }
      if (property === "getCell") {
        return (row: number, column: number) => {
          const top = block.top + row;
          const left = block.left + column;
          if (top < 0 || left < 0 || top > LAST_ROW || left > LAST_COLUMN) {
            // Past the sheet's edge: Office.js fails the next sync, as for getRange("XFE1").
            queue.push({
              kind: "fail",
              code: "InvalidArgument",
              message: INVALID_ARGUMENT_MESSAGE,
            });
            return rangeProxy(workbook, state, queue, sheet, block);
          }
          return rangeProxy(workbook, state, queue, sheet, {
            top,
            left,
            rowCount: 1,
            columnCount: 1,
          });
        };
      }
      const value = Reflect.get(object, property, object);
      if (typeof value === "function") return value.bind(object);
      if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
        throw new Error(`${String(property)} of ${blockAddress(block)}: ${value}`);
      }
      return value;
    },
    set: (object, property, data) => {
      if (typeof property === "string" && WRITABLE.includes(property)) {
        timed(workbook.stats, () => checkShape(data, block, property));
        queue.push({ kind: "write", sheet, block, property: property as WritableProperty, data });
        return true;
      }
      return Reflect.set(object, property, data);
    },
  }) as unknown as Excel.Range;
}

/** `Range.getVisibleView()`: only `cellAddresses` is modelled (load it, then sync). */
function visibleView(queue: SyncOperation[], sheet: string, block: CellBlock): OfficeMockObject {
  const view = new OfficeMockObject({ cellAddresses: undefined });
  return new Proxy(view, {
    get: (object, property, receiver) => {
      if (property === "load") {
        return (argument: string | string[]) => {
          const properties = loadList(argument);
          object.load(properties);
          queue.push({ kind: "load", target: object, sheet, block, properties });
          return receiver;
        };
      }
      const value = Reflect.get(object, property, object);
      if (typeof value === "function") return value.bind(object);
      if (typeof value === "string" && MOCK_ERRORS.includes(value)) {
        throw new Error(`${String(property)} of the visible view: ${value}`);
      }
      return value;
    },
  });
}
