/**
 * JSON with object keys sorted at every depth, so equal inputs give equal text whatever the key
 * order (`{a,b}` and `{b,a}` share a reuse key). Arrays keep their order; `undefined` members are
 * dropped like JSON.stringify does.
 *
 * ## Example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 * @internal
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  // Dates and other objects with toJSON serialise as JSON.stringify would.
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return sortKeys(withToJson.toJSON());
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
