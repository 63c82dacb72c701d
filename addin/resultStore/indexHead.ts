/**
 * Today's head item of a `PersistentResultStore`'s index: the index's segments, oldest first per
 * lane (`r0`, `r1`, … for results, `s0`, … for started runs' records).
 *
 * @internal
 */
export interface IndexHead {
  /** How entries' ids are made (`resultId`). */
  ids: "hashText";
  segments: string[];
}

/**
 * The head item listing `segments`.
 *
 * @internal
 * @param segments the segments' names
 * @return the head, to be stored as JSON
 */
export function indexHead(segments: string[]): IndexHead {
  return { ids: "hashText", segments };
}

/**
 * Whether a parsed head item is in today's layout.
 *
 * @internal
 * @param value the parsed head item
 * @return `true` for a head listing segments
 */
export function isIndexHead(value: unknown): value is IndexHead {
  const segments = (value as { segments?: unknown } | null)?.segments;
  return (
    value !== null &&
    typeof value === "object" &&
    (value as { ids?: unknown }).ids === "hashText" &&
    Array.isArray(segments) &&
    segments.every((name) => typeof name === "string" && /^[rs]\d+$/.test(name))
  );
}
