/** The request context of a mock `Excel.run` batch: workbook, worksheets, names, application. */
import { OfficeMockObject } from "office-addin-mock";
import { parseAddress } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { parseAnyAddress, wholeLines } from "./mockRanges.js";
import { INVALID_ARGUMENT_MESSAGE } from "./MockOfficeError.js";
import type { MockWorkbook } from "./mockWorkbook.js";
import { namedItem } from "./namedItem.js";
import { rangeProxy } from "./rangeProxy.js";
import type { SyncOperation } from "./syncOperation.js";
import { syncQueue } from "./syncQueue.js";
import { timed } from "./timed.js";
import { sheetNamed } from "./workbookState.js";
import type { WorkbookState } from "./workbookState.js";

/** A batch's `context`, queueing its operations on `queue` until `context.sync()`. */
export function requestContext(
  workbook: MockWorkbook,
  state: WorkbookState,
  queue: SyncOperation[]
): OfficeMockObject {
  return timed(workbook.stats, () => createRequestContext(workbook, state, queue));
}

function createRequestContext(
  workbook: MockWorkbook,
  state: WorkbookState,
  queue: SyncOperation[]
): OfficeMockObject {
  const makeRange = (sheet: string, block: CellBlock) =>
    rangeProxy(workbook, state, queue, sheet, block);
  const worksheet = (key: string, nullable = false) => {
    const name = sheetNamed(state, key);
    return timed(workbook.stats, () => {
      const sheet = new OfficeMockObject({
        name,
        id: state.sheetIds.get(name) ?? "",
        visibility: state.visibility.get(name) ?? "Visible",
        getRange: (address: string) => {
          // Checked at sync: a sheet added earlier in the same batch exists by then.
          queue.push({ kind: "requireSheet", name });
          let block: CellBlock;
          try {
            block = wholeLines(address) ?? parseAddress(address).block;
          } catch {
            // As Office.js: the batch is built, the sync fails (errorLocation Worksheet.getRange).
            queue.push({
              kind: "fail",
              code: "InvalidArgument",
              message: INVALID_ARGUMENT_MESSAGE,
            });
            block = { top: 0, left: 0, rowCount: 1, columnCount: 1 };
          }
          return makeRange(name, block);
        },
        getUsedRange: (valuesOnly?: boolean) => {
          const block = workbook.usedBlock(name, valuesOnly === true);
          if (!block) {
            queue.push({ kind: "fail", code: "ItemNotFound", message: `${name} is empty` });
          }
          return makeRange(name, block ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 });
        },
        getUsedRangeOrNullObject: (valuesOnly?: boolean) => {
          const block = workbook.usedBlock(name, valuesOnly === true);
          const range = makeRange(name, block ?? { top: 0, left: 0, rowCount: 1, columnCount: 1 });
          Reflect.set(range, "isNullObject", block === undefined);
          return range;
        },
      });
      let isNull: boolean | undefined = nullable ? undefined : false;
      if (nullable) {
        queue.push({
          kind: "lookup",
          target: sheet,
          fill: () => {
            isNull = !state.sheets.has(name);
          },
        });
      }
      return new Proxy(sheet, {
        get: (object, property) => {
          if (property === "isNullObject") {
            if (isNull === undefined) throw new Error(`isNullObject of sheet ${name}: sync first`);
            return isNull;
          }
          const value = Reflect.get(object, property, object);
          return typeof value === "function" ? value.bind(object) : value;
        },
        set: (object, property, value) => {
          if (property === "visibility") {
            queue.push({ kind: "visibility", name, visibility: String(value) });
            return true;
          }
          return Reflect.set(object, property, value);
        },
      });
    });
  };
  return new OfficeMockObject({
    workbook: {
      getSelectedRange: () => {
        const { sheet, block } = parseAnyAddress(workbook.selection);
        return makeRange(sheet, block);
      },
      worksheets: {
        getItem: (name: string) => worksheet(name),
        getItemOrNullObject: (name: string) => worksheet(name, true),
        add: (name: string) => {
          queue.push({ kind: "addSheet", name });
          return worksheet(name);
        },
      },
      names: {
        add: (name: string, reference: Excel.Range) => {
          const { sheet, block } = parseAddress(
            (reference as unknown as { _address: string })._address
          );
          queue.push({ kind: "name", name, target: { sheet, block } });
        },
        getItemOrNullObject: (name: string) => namedItem(state, queue, name),
        getItem: (name: string) => namedItem(state, queue, name),
      },
      application: {
        calculate: (calculationType: string) => {
          queue.push({ kind: "calculate", calculationType });
        },
      },
    },
    sync: () => syncQueue(workbook, state, queue),
  });
}
