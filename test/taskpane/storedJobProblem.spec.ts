import {
  countIndexes,
  rowRecordProblem,
  storedJobIds,
  storedJobProblem,
} from "../../taskpane/storedJob/storedJobProblem.js";

const GOOD = {
  version: 1,
  spellId: "echo",
  sheet: "Sheet1",
  headerRow: 0,
  rows: "1-3",
  inputColumns: [0],
  inputNames: ["text"],
  fingerprints: ["a", "b", "c"],
  statusColumn: 1,
  startedAt: 1,
};
const PROGRESS = {
  token: { spellId: "echo", groupIds: ["g"], chunkSizes: [3] },
  tokenRows: "1-3",
  outputNames: ["upper"],
  handled: "0-1",
};

describe("storedJobProblem", () => {
  it("should accept a job as the pane stores it", () => {
    expect(storedJobProblem(GOOD, PROGRESS)).toBeUndefined();
    expect(storedJobProblem(GOOD, null)).toBeUndefined();
  });

  it("should count ranges without expanding them", () => {
    expect(countIndexes("1-3,7", 10)).toBe(4);
    expect(countIndexes("0-9999999999", Number.MAX_SAFE_INTEGER)).toBe(10_000_000_000);
    expect(countIndexes("0-9999999999", 1_048_575)).toBeUndefined();
    expect(countIndexes("3-1", 10)).toBeUndefined();
    expect(countIndexes("1e3", 10_000)).toBeUndefined();
  });

  it("should refuse each field out of its bounds, saying which", () => {
    const cases: [Record<string, unknown>, unknown, RegExp][] = [
      [{ ...GOOD, rows: "0-9999999999" }, null, /claims 10000000000 rows/],
      [{ ...GOOD, headerRow: 2_000_000 }, null, /header row/],
      [{ ...GOOD, statusColumn: -1 }, null, /status column/],
      [{ ...GOOD, inputColumns: [16_384] }, null, /input columns/],
      [{ ...GOOD, fingerprints: ["a"] }, null, /one fingerprint per row/],
      [{ ...GOOD, version: 2 }, null, /format version 2/],
      [GOOD, { ...PROGRESS, handled: "0-9999999999" }, /finished rows/],
      [GOOD, { ...PROGRESS, token: { ...PROGRESS.token, chunkSizes: [1e9] } }, /sizes/],
      [GOOD, { ...PROGRESS, tokenRows: "1-3000000" }, /row map/],
      [GOOD, { ...PROGRESS, outputNames: [{}] }, /output names/],
    ];
    for (const [job, progress, problem] of cases) {
      expect(storedJobProblem(job, progress)).withContext(JSON.stringify(job)).toMatch(problem);
    }
  });

  it("should keep at most 100 ids of a block name's length", () => {
    const ids = Array.from({ length: 1_000_000 }, (_, i) => `job${i}`);
    expect(storedJobIds(ids).length).toBe(100);
    expect(storedJobIds(["ok", 7, "x".repeat(10_000), ""])).toEqual(["ok"]);
    expect(storedJobIds("nope")).toEqual([]);
  });

  it("should check a job whose rows are in the record sheet, and that record, with the same bounds", () => {
    const pointer = { ...GOOD, rows: "", fingerprints: undefined, rowRecord: true, runs: 3 };
    expect(storedJobProblem(pointer, null)).toBeUndefined();
    expect(storedJobProblem({ ...pointer, runs: 1e10 }, null)).toMatch(/row count/);
    const record = { rows: "1-3", fingerprints: "A".repeat(27), handled: "" };
    expect(rowRecordProblem(record, 3)).toBeUndefined();
    expect(rowRecordProblem({ ...record, rows: "0-9999999999" }, 3)).toMatch(/row numbers/);
    expect(rowRecordProblem({ ...record, fingerprints: "A" }, 3)).toMatch(/fingerprint/);
    expect(rowRecordProblem({ ...record, token: "{" }, 3)).toMatch(/token/);
  });
});
