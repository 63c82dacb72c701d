/**
 * Set-up of the playground's browser specs: the playground booted in the Karma page over the
 * emulator, with the add-in's custom functions associated through `CustomFunctions.associate`
 * from the metadata the build generates, and the mouse gestures a person makes on the grid.
 */
import * as functionsModule from "../../functions/functions.js";
import { bootPlayground } from "../../playground/bootPlayground.js";
import type { Playground } from "../../playground/bootPlayground.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import type { CustomFunctionMetadata } from "../../playground/functions/customFunctionsRuntime.js";

interface KarmaWindow {
  __karma__?: {
    config?: {
      customFunctions?: {
        functions: CustomFunctionMetadata[];
        associate: { functionName: string; id: string }[];
      };
    };
  };
}

type Worksheet = ReturnType<Playground["grid"]["worksheet"]>;

/**
 * Boots a playground in a fresh element of the page; `stop()` also removes the element.
 *
 * @example
 * const playground = await playgroundWith({ Sheet1: [["text"], ["hello"]] });
 */
export async function playgroundWith(
  sheets: Record<string, MockCellValue[][]>,
  options: { excelApiVersion?: string } = {}
): Promise<Playground> {
  const generated = (globalThis as unknown as KarmaWindow).__karma__?.config?.customFunctions;
  if (!generated) throw new Error("No functions metadata: run with `npm run test:browser`.");
  const gridElement = document.createElement("div");
  document.body.append(gridElement);
  const playground = await bootPlayground({
    gridElement,
    sheets,
    metadata: generated.functions,
    gridSize: { columns: 6, rows: 30 },
    excelApiVersion: options.excelApiVersion,
    // What the metadata plugin appends to functions.js: one associate per @customfunction.
    loadFunctions: async () => {
      const exports = functionsModule as unknown as Record<string, (...args: unknown[]) => unknown>;
      for (const { functionName, id } of generated.associate) {
        CustomFunctions.associate(id, exports[functionName]);
      }
    },
  });
  const stop = playground.stop;
  playground.stop = () => {
    stop();
    gridElement.remove();
  };
  return playground;
}

function mouse(target: Element, type: string, buttons: number): void {
  target.dispatchEvent(
    new MouseEvent(type, { bubbles: true, cancelable: true, buttons, button: 0 })
  );
}

/** Clicks a cell (selecting it), as a person does. */
export function clickCell(worksheet: Worksheet, column: number, row: number): void {
  const cell = worksheet.getCellFromCoords(column, row);
  mouse(cell, "mousedown", 1);
  mouse(cell, "mouseup", 0);
}

/** Selects from one cell to another by dragging, as a person does. */
export function dragSelect(
  worksheet: Worksheet,
  from: { column: number; row: number },
  to: { column: number; row: number }
): void {
  mouse(worksheet.getCellFromCoords(from.column, from.row), "mousedown", 1);
  mouse(worksheet.getCellFromCoords(to.column, to.row), "mouseover", 1);
  mouse(worksheet.getCellFromCoords(to.column, to.row), "mouseup", 0);
}

/**
 * Drags the fill handle (the selection's corner square) down to `toRow`, as a person fills a
 * formula down.
 */
export function dragFillHandle(worksheet: Worksheet, column: number, toRow: number): void {
  const corner = (worksheet.element as HTMLElement).querySelector(".jss_corner");
  if (!corner) throw new Error("no fill handle");
  mouse(corner, "mousedown", 1);
  const target = worksheet.getCellFromCoords(column, toRow);
  mouse(target, "mouseover", 1);
  mouse(target, "mouseup", 0);
}
