/**
 * One lane of a `PersistentResultStore`'s stored index: the rows of the entries of one kind
 * (results, or started runs' records) that storage holds, oldest first, split into segments of at
 * most `segmentRows` rows, each kept in a storage item of its own. A new row goes to the newest
 * segment; a flush writes only the segments that changed, so a stream of results rewrites one
 * segment of a few thousand characters per flush instead of the whole index.
 *
 * A segment's text is its rows, one a line: `id expiresAt chars` (numbers in base 36).
 *
 * ## Example
 * ```ts
 * const lane = new ResultIndexLane("r", 500);
 * lane.add("k3f", "k3f lz2a 8c");
 * lane.oldest(); // "k3f"
 * ```
 *
 * @internal
 */
export class ResultIndexLane {
  /** Segment number → (id → row text), both in age order. */
  private readonly segments = new Map<number, Map<string, string>>();
  private readonly segmentOf = new Map<string, number>();
  private readonly dirty = new Set<number>();
  private nextSegment = 0;

  /**
   * @param tag names the lane's segments (`r0`, `r1`, … for tag `r`)
   * @param segmentRows the most rows a segment holds
   */
  constructor(
    readonly tag: string,
    private readonly segmentRows: number
  ) {}

  /** How many rows the lane holds. */
  get size(): number {
    return this.segmentOf.size;
  }

  /** How many segments the lane has. */
  get segmentCount(): number {
    return this.segments.size;
  }

  /**
   * Whether the lane holds `id`.
   *
   * @param id an entry's id
   */
  has(id: string): boolean {
    return this.segmentOf.has(id);
  }

  /**
   * Adds a row as the newest (appended to the newest segment, or a new one when it is full).
   *
   * @param id the entry's id
   * @param row the row's text
   */
  add(id: string, row: string): void {
    let number = this.nextSegment - 1;
    let segment = this.segments.get(number);
    if (!segment || segment.size >= this.segmentRows) {
      number = this.nextSegment++;
      segment = new Map();
      this.segments.set(number, segment);
    }
    segment.set(id, row);
    this.segmentOf.set(id, number);
    this.dirty.add(number);
  }

  /**
   * Takes a row out (its segment is rewritten, or removed when it is left empty).
   *
   * @param id the entry's id
   * @return whether the lane held it
   */
  remove(id: string): boolean {
    const number = this.segmentOf.get(id);
    if (number === undefined) return false;
    this.segmentOf.delete(id);
    const segment = this.segments.get(number);
    segment?.delete(id);
    if (segment?.size === 0) this.segments.delete(number);
    this.dirty.add(number);
    return true;
  }

  /** The id of the oldest row, if any. */
  oldest(): string | undefined {
    for (const segment of this.segments.values()) {
      for (const id of segment.keys()) return id;
    }
    return undefined;
  }

  /** The names of its segments, oldest first (what the index's head item lists). */
  names(): string[] {
    return [...this.segments.keys()].map((number) => `${this.tag}${number}`);
  }

  /**
   * The segments changed since the last call: their texts to write (by name) and the names of
   * those left empty (to remove). Clears the changes.
   */
  takeChanges(): { write: Map<string, string>; remove: string[] } {
    const write = new Map<string, string>();
    const remove: string[] = [];
    for (const number of this.dirty) {
      const segment = this.segments.get(number);
      if (segment) write.set(`${this.tag}${number}`, [...segment.values()].join("\n"));
      else remove.push(`${this.tag}${number}`);
    }
    this.dirty.clear();
    return { write, remove };
  }

  /**
   * Takes the rows of a stored segment as they were written (on loading): they keep its number,
   * and later segments get higher ones. Not marked changed.
   *
   * @param name the segment's name (`r3`)
   * @param rows its rows, `[id, text]`, oldest first
   */
  restore(name: string, rows: [id: string, text: string][]): void {
    const number = Number(name.slice(this.tag.length));
    if (!Number.isSafeInteger(number) || number < 0 || rows.length === 0) return;
    const segment = new Map<string, string>();
    for (const [id, text] of rows) {
      if (this.segmentOf.has(id)) continue;
      segment.set(id, text);
      this.segmentOf.set(id, number);
    }
    if (segment.size > 0) this.segments.set(number, segment);
    this.nextSegment = Math.max(this.nextSegment, number + 1);
  }

  /**
   * Marks every segment changed (an index moved from an earlier layout is written anew).
   */
  touchAll(): void {
    for (const number of this.segments.keys()) this.dirty.add(number);
  }
}
