/**
 * Rows between two results that are still written as one block (as `null`, i.e. untouched).
 *
 * ## Example
 * ```ts
 * segments(rows, MAX_GAP_ROWS, () => rowBytes, budgetBytes);
 * ```
 */
export const MAX_GAP_ROWS = 8;
/**
 * Bytes assumed per input cell when checking rows (the cells are not known before reading).
 *
 * ## Example
 * ```ts
 * const rowBytes = columnCount * ASSUMED_INPUT_CELL_BYTES;
 * ```
 */
export const ASSUMED_INPUT_CELL_BYTES = 512;
