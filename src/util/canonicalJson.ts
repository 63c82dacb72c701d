/**
 * JSON with object keys sorted at every depth, so equal inputs give equal text whatever the key
 * order (`{a,b}` and `{b,a}` share a reuse key). Arrays keep their order; `undefined` members are
 * dropped like JSON.stringify does.
 *
 * The text is exactly `JSON.stringify` of a copy whose keys were inserted in sorted order (what
 * earlier versions computed, so keys stored by them still match), written directly without the
 * copy: it is computed for every `SPELL.RUN` call of a filled-down column. Like such a copy,
 * integer-like keys ("2", "10") come first in numeric order, then the others sorted.
 *
 * ## Example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 * @internal
 */
export function canonicalJson(value: unknown): string {
  return write(value) as string;
}

/** `JSON.stringify(value)` with sorted keys; undefined where JSON.stringify leaves a value out. */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "number":
    case "bigint": // throws, as JSON.stringify does
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return undefined; // undefined, functions, symbols
  }
  if (value === null) return "null";
  // Dates and other objects with toJSON serialise as JSON.stringify would.
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return write(withToJson.toJSON());
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      text += write(value[i]) ?? "null";
    }
    return text + "]";
  }
  const record = value as Record<string, unknown>;
  let text = "{";
  let first = true;
  for (const key of sortedKeys(record)) {
    const member = write(record[key]);
    if (member === undefined) continue;
    text += (first ? "" : ",") + JSON.stringify(key) + ":" + member;
    first = false;
  }
  return text + "}";
}

/** The keys in the order an object built by inserting them sorted would enumerate them. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  keys.sort();
  // Array-index keys are always enumerated first, in numeric order (ECMAScript OrdinaryOwnPropertyKeys).
  if (!keys.some(startsWithDigit)) return keys;
  const indexes = keys.filter(isArrayIndex);
  if (indexes.length === 0) return keys;
  indexes.sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isArrayIndex(key))];
}

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
}
