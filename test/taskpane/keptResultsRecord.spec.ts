import {
  MAX_KEPT_CHARS_PER_RUN,
  keptResultsFromSetting,
  keptResultsRecordProblem,
  keptResultsRecordText,
  readKeptResultsRecord,
} from "../../taskpane/storedJob/keptResultsRecord.js";
import { rowRecordProblem } from "../../taskpane/storedJob/storedJobProblem.js";

const D = { status: "success", outputs: { upper: "D" }, inputs: ["d"], formats: ["@"] };

describe("keptResultsRecord (a job's kept results in its per-row record)", () => {
  it("should store one line per result and read them back as they were", () => {
    const kept = [
      D,
      { status: "failure", outputs: { reason: "=1+1\nsecond line", score: 0.5, ok: false } },
      { status: "success" },
    ];
    const text = keptResultsRecordText(kept);
    expect(text.split("\n").length).toBe(3);
    expect(readKeptResultsRecord(text, 3)).toEqual({ kept });
    expect(readKeptResultsRecord("", 3)).toEqual({ kept: [] });
    expect(keptResultsRecordText([])).toBe("");
  });

  it("should keep an object or array output as its JSON text (what Copy and a cell show)", () => {
    const text = keptResultsRecordText([
      {
        status: "success",
        outputs: { tags: ["a", "b"], meta: { n: 1 }, none: null, gone: undefined },
      },
    ]);
    expect(readKeptResultsRecord(text, 1)).toEqual({
      kept: [{ status: "success", outputs: { tags: '["a","b"]', meta: '{"n":1}', none: null } }],
    });
  });

  it("should refuse more results than runs and more characters than its runs keep, before parsing", () => {
    const line = keptResultsRecordText([D]);
    expect(keptResultsRecordProblem([line, line, line].join("\n"), 3)).toBeUndefined();
    expect(keptResultsRecordProblem([line, line, line, line].join("\n"), 3)).toMatch(
      /more results than its 3 runs/
    );
    const started = performance.now();
    expect(keptResultsRecordProblem("\n".repeat(3 * MAX_KEPT_CHARS_PER_RUN), 3)).toMatch(
      /more results than its 3 runs/
    );
    const oversize = "x".repeat(3 * MAX_KEPT_CHARS_PER_RUN + 1);
    expect(keptResultsRecordProblem(oversize, 3)).toMatch(
      /takes? 3145729 characters, more than a job of 3 runs keeps/
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("should refuse a result that is not made of scalars, saying why", () => {
    const cases: [string, RegExp][] = [
      ["{", /damaged/],
      ["[1]", /not results of runs/],
      ['{"outputs":{}}', /not results of runs/],
      ['{"status":"success","outputs":{"x":{"deep":[1]}}}', /output that is not text/],
      ['{"status":"success","outputs":[1]}', /not named values/],
      ['{"status":"success","inputs":[{}]}', /inputs are not text/],
      ['{"status":"success","formats":[1]}', /formats are not text/],
      [`{"status":"success","inputs":[${new Array(16_385).fill(1).join(",")}]}`, /inputs/],
    ];
    for (const [text, problem] of cases) {
      expect(keptResultsRecordProblem(text, 5)).withContext(text.slice(0, 60)).toMatch(problem);
    }
  });

  it("should copy only the fields of a result, with own outputs only", () => {
    const read = readKeptResultsRecord(
      '{"status":"success","outputs":{"__proto__":"p","x":1},"extra":{"deep":true}}',
      1
    );
    expect(read).toEqual({ kept: [{ status: "success", outputs: { ["__proto__"]: "p", x: 1 } }] });
    const [result] = "kept" in read ? read.kept : [];
    expect(Object.getPrototypeOf(result.outputs)).toBe(Object.prototype);
  });

  it("should read the setting of the previous version, its object outputs as text, and nothing of a damaged one", () => {
    expect(keptResultsFromSetting([{ status: "success", outputs: { tags: ["a"] } }], 5)).toEqual([
      { status: "success", outputs: { tags: '["a"]' } },
    ]);
    expect(keptResultsFromSetting(null, 5)).toEqual([]);
    expect(keptResultsFromSetting([D, D], 1)).toEqual([]);
    expect(keptResultsFromSetting([D, { status: 7 }], 5)).toEqual([]);
  });

  it("should make a record with an unusable kept field unusable as a whole (reported, then forgotten)", () => {
    const record = { rows: "1-3", fingerprints: "A".repeat(27), handled: "" };
    const kept = keptResultsRecordText([D, D]);
    expect(rowRecordProblem({ ...record, kept }, 3)).toBeUndefined();
    expect(rowRecordProblem({ ...record, kept: `${kept}\n${kept}` }, 3)).toMatch(/more results/);
    expect(
      rowRecordProblem({ ...record, kept: "y".repeat(4 * MAX_KEPT_CHARS_PER_RUN) }, 3)
    ).toMatch(/characters/);
  });
});
