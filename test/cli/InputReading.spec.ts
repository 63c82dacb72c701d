import {
  isInputReading,
  letterColumnName,
  parseInputReading,
} from "../../cli/table/InputReading.js";
import { parseJournalRecord } from "../../cli/job/parseJournalRecord.js";

describe("InputReading", () => {
  it("should take csvkit's flags, tab as \\t, and refuse what cannot be a delimiter or a CSV flag on JSONL", () => {
    expect(parseInputReading({ headerRow: true }, "csv")).toEqual({});
    expect(parseInputReading({ delimiter: "\\t", headerRow: false }, "csv")).toEqual({
      delimiter: "\t",
      headerRow: false,
    });
    expect(parseInputReading({ encoding: "windows-1252" }, "jsonl")).toEqual({
      encoding: "windows-1252",
    });
    expect(() => parseInputReading({ delimiter: ";;" }, "csv")).toThrowError(/one character/);
    expect(() => parseInputReading({ delimiter: '"' }, "csv")).toThrowError(/one character/);
    expect(() => parseInputReading({ encoding: "klingon" }, "csv")).toThrowError(
      /no such encoding/
    );
    expect(() => parseInputReading({ headerRow: false }, "jsonl")).toThrowError(/not JSONL/);
  });

  it("should name headerless columns as csvkit does", () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(letterColumnName)).toEqual([
      "a",
      "b",
      "z",
      "aa",
      "bb",
      "zz",
      "aaa",
    ]);
  });

  it("should accept in a journal only a reading this version writes", () => {
    expect(isInputReading({ encoding: "latin1", delimiter: ";", headerRow: false })).toBeTrue();
    for (const planted of [
      { encoding: "klingon" },
      { delimiter: ";;" },
      { headerRow: true },
      { delimiter: ";", extra: 1 },
      [],
      null,
    ]) {
      expect(isInputReading(planted)).withContext(JSON.stringify(planted)).toBeFalse();
    }
    const job = {
      type: "job",
      version: 1,
      spellId: "echo",
      input: "/data/in.csv",
      inputFormat: "csv",
      output: "/data/out.csv",
      outputFormat: "csv",
      chunkSize: 500,
      mapping: { rename: {} },
      csvGuard: true,
      baseUrl: "http://127.0.0.1:3001",
      pollBaseUrl: "http://127.0.0.1:3002",
      authHeader: "authorization",
    };
    expect(parseJournalRecord(JSON.stringify({ ...job, reading: { delimiter: ";" } }))).toEqual(
      jasmine.objectContaining({ reading: { delimiter: ";" } })
    );
    expect(
      parseJournalRecord(JSON.stringify({ ...job, reading: { encoding: 7 } }))
    ).toBeUndefined();
  });
});
