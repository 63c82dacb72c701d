import { matchBulkEntries, type IdentifiedEntry } from "../../src/runs/matchBulkEntries.js";
import { parseBulkRuns } from "../../src/http/parseBulkRuns.js";

const done = (n: number, extra: Partial<IdentifiedEntry> = {}): IdentifiedEntry => ({
  state: "success",
  outputs: { n },
  ...extra,
});
const outputsOf = (slots: Array<IdentifiedEntry | undefined>) =>
  slots.map((slot) => slot?.outputs.n);

describe("matchBulkEntries", () => {
  const inputs = [{ n: 0 }, { n: 1 }, { n: 2 }];

  it("should match by position when entries carry nothing that identifies their input", () => {
    expect(outputsOf(matchBulkEntries([done(0), done(1), done(2)], 3, inputs))).toEqual([0, 1, 2]);
    expect(outputsOf(matchBulkEntries([done(0)], 3, inputs))).toEqual([0, undefined, undefined]);
  });

  it("should match by the echo of the inputs, whatever the order and key order", () => {
    const entries = [
      done(2, { inputs: { n: 2 } }),
      done(0, { inputs: { n: 0 } }),
      done(1, { inputs: { n: 1 } }),
    ];
    expect(outputsOf(matchBulkEntries(entries, 3, inputs))).toEqual([0, 1, 2]);
    const rows = [
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ];
    const echoed = [
      { state: "success", outputs: { n: 1 }, inputs: { b: 4, a: 3 } },
      { state: "success", outputs: { n: 0 }, inputs: { b: 2, a: 1 } },
    ];
    expect(outputsOf(matchBulkEntries(echoed, 2, rows))).toEqual([0, 1]);
  });

  it("should give identical inputs one entry each, and leave rows not visible yet empty", () => {
    const rows = [{ x: 1 }, { x: 2 }, { x: 1 }];
    const entries = [done(7, { inputs: { x: 1 } }), done(8, { inputs: { x: 1 } })];
    expect(outputsOf(matchBulkEntries(entries, 3, rows))).toEqual([7, undefined, 8]);
  });

  it("should match by index when every entry has a distinct one in range", () => {
    const entries = [done(2, { index: 2 }), done(0, { index: 0 })];
    expect(outputsOf(matchBulkEntries(entries, 3, undefined))).toEqual([0, undefined, 2]);
  });

  it("should fall back to position when identifiers are partial, repeated, out of range or unknown", () => {
    const partial = [done(0, { inputs: { n: 1 } }), done(1)];
    expect(outputsOf(matchBulkEntries(partial, 3, inputs))).toEqual([0, 1, undefined]);
    const repeated = [done(0, { index: 1 }), done(1, { index: 1 })];
    expect(outputsOf(matchBulkEntries(repeated, 2, undefined))).toEqual([0, 1]);
    const outOfRange = [done(0, { index: 5 })];
    expect(outputsOf(matchBulkEntries(outOfRange, 2, undefined))).toEqual([0, undefined]);
    const unknownEcho = [done(0, { inputs: { n: 99 } })];
    expect(outputsOf(matchBulkEntries(unknownEcho, 2, inputs.slice(0, 2)))).toEqual([0, undefined]);
    // After resumeBulk the inputs are not known: an echo cannot be used.
    const echoOnly = [done(1, { inputs: { n: 1 } }), done(0, { inputs: { n: 0 } })];
    expect(outputsOf(matchBulkEntries(echoOnly, 2, undefined))).toEqual([1, 0]);
  });

  it("should read index and echoed inputs from a getBulkRuns answer, ignoring malformed ones", () => {
    const parsed = parseBulkRuns(
      {
        runs: [
          { state: "success", outputs: { n: 1 }, index: 1, inputs: { n: 1 } },
          { state: "success", outputs: { n: 0 }, index: "0", inputs: [0] },
        ],
      },
      { method: "POST", endpoint: "getBulkRuns", url: "http://base.test/spells/getBulkRuns" }
    );
    expect(parsed).toEqual([
      { state: "success", outputs: { n: 1 }, index: 1, inputs: { n: 1 } },
      { state: "success", outputs: { n: 0 } },
    ]);
  });
});
