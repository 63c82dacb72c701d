/** Rectangles of cells as the formula engine compares them: containment, overlap, union. */
import type { CellBlock } from "../excel/a1.js";

/** Whether the block holds the cell. */
export function contains(block: CellBlock, row: number, column: number): boolean {
  return (
    row >= block.top &&
    row < block.top + block.rowCount &&
    column >= block.left &&
    column < block.left + block.columnCount
  );
}

/** Whether every cell of `inner` is in `outer`. */
export function within(inner: CellBlock, outer: CellBlock): boolean {
  return (
    contains(outer, inner.top, inner.left) &&
    contains(outer, inner.top + inner.rowCount - 1, inner.left + inner.columnCount - 1)
  );
}

/** Whether a dependency (a block of a sheet) and a block of `sheet` share a cell. */
export function overlaps(
  dependency: { sheet: string; block: CellBlock },
  sheet: string,
  block: CellBlock
): boolean {
  const a = dependency.block;
  return (
    dependency.sheet === sheet &&
    a.top < block.top + block.rowCount &&
    block.top < a.top + a.rowCount &&
    a.left < block.left + block.columnCount &&
    block.left < a.left + a.columnCount
  );
}

/** The smallest block holding both. */
export function union(a: CellBlock, b: CellBlock): CellBlock {
  const top = Math.min(a.top, b.top);
  const left = Math.min(a.left, b.left);
  return {
    top,
    left,
    rowCount: Math.max(a.top + a.rowCount, b.top + b.rowCount) - top,
    columnCount: Math.max(a.left + a.columnCount, b.left + b.columnCount) - left,
  };
}
