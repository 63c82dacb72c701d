/** The grid's sort order. */

/** The grid's sort, with row 1 (the column names) kept first and empty cells last. */
export function compareForSort(a: [number, unknown], b: [number, unknown], order: 0 | 1): number {
  if (a[0] === 0) return -1;
  if (b[0] === 0) return 1;
  const left = a[1];
  const right = b[1];
  if (left === "" && right !== "") return 1;
  if (left !== "" && right === "") return -1;
  // Excel ignores case ("apple" beside "Apple"), and numbers compare as numbers.
  const compared = String(left).localeCompare(String(right), undefined, {
    sensitivity: "accent",
    numeric: true,
  });
  return order ? -compared : compared;
}
