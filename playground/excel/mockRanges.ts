/**
 * Helpers of the workbook model's ranges: whole-line addresses ("D:E", "3:5"), the addresses
 * Office.js takes (with or without a sheet), `load` argument lists, the shape checks of a write,
 * and filling a loaded proxy after a sync. Module functions, no state.
 */
import type { OfficeMockObject } from "office-addin-mock";
import { blockAddress, columnName, LAST_COLUMN, LAST_ROW, parseAddress } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { MockOfficeError } from "./MockOfficeError.js";

export { LAST_COLUMN, LAST_ROW } from "./a1.js";

/** Any address Excel reports (a block, whole columns or whole rows), with its sheet. */
export function parseAnyAddress(address: string): { sheet: string; block: CellBlock } {
  const bang = address.lastIndexOf("!");
  const lines = wholeLines(address.slice(bang + 1).replace(/\$/g, ""));
  if (!lines) return parseAddress(address);
  const sheet =
    bang >= 0
      ? address
          .slice(0, bang)
          .replace(/^'(.*)'$/, "$1")
          .replace(/''/g, "'")
      : "";
  return { sheet, block: lines };
}

/** "A:C" or "3:5" for a block of whole columns or rows (as Excel reports them), else undefined. */
export function lineAddress(block: CellBlock): string | undefined {
  if (block.top === 0 && block.rowCount === LAST_ROW + 1) {
    return `${columnName(block.left)}:${columnName(block.left + block.columnCount - 1)}`;
  }
  if (block.left === 0 && block.columnCount === LAST_COLUMN + 1) {
    return `${block.top + 1}:${block.top + block.rowCount}`;
  }
  return undefined;
}

/** A whole-column ("D:E") or whole-row ("3:5") address as a block, else undefined. */
export function wholeLines(address: string): CellBlock | undefined {
  const columns = /^([A-Z]+):([A-Z]+)$/i.exec(address);
  if (columns) {
    const a = parseAddress(`${columns[1]}1`).block.left;
    const b = parseAddress(`${columns[2]}1`).block.left;
    const left = Math.min(a, b);
    return { top: 0, left, rowCount: LAST_ROW + 1, columnCount: Math.abs(b - a) + 1 };
  }
  const rows = /^(\d+):(\d+)$/.exec(address);
  if (rows) {
    const first = Math.min(Number(rows[1]), Number(rows[2]));
    const last = Math.max(Number(rows[1]), Number(rows[2]));
    if (first < 1 || last > LAST_ROW + 1) throw new Error(`Not an A1 address: ${address}`);
    const top = first - 1;
    return { top, left: 0, rowCount: last - top, columnCount: LAST_COLUMN + 1 };
  }
  return undefined;
}

export function loadList(
  argument: string | string[] | Record<string, unknown> | undefined
): string[] {
  if (argument === undefined)
    return ["values", "formulas", "numberFormat", "text", "address", "rowCount", "columnCount"];
  if (typeof argument === "string") return argument.split(",").map((part) => part.trim());
  if (Array.isArray(argument)) return argument;
  return Object.keys(argument);
}

export function checkShape(data: unknown, block: CellBlock, property: string): void {
  if (!Array.isArray(data)) return; // a single value applies to every cell
  const ok =
    data.length === block.rowCount &&
    data.every((row) => Array.isArray(row) && row.length === block.columnCount);
  if (!ok) {
    throw new MockOfficeError(
      "InvalidArgument",
      `${property} of ${blockAddress(block)} needs ${block.rowCount}×${block.columnCount} items`
    );
  }
}

/** Puts the value that a queued load will reveal at the next sync into the mock's property. */
export function fillLoaded(target: OfficeMockObject, property: string, data: unknown): void {
  // office-addin-mock keeps the value a property shows after load+sync in `_valueBeforeLoaded`;
  // the model decides it at sync time, so the add-in sees the grid as it is then.
  const internals = target as unknown as {
    _properties: Map<string, { _valueBeforeLoaded: unknown }>;
  };
  const child = internals._properties.get(property);
  if (child) child._valueBeforeLoaded = data;
}

export function quoteSheet(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
