import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { Journal } from "../../cli/job/Journal.js";
import type { JobRecord } from "../../cli/job/JournalRecord.js";
import { replayJournal } from "../../cli/job/replayJournal.js";
import { tempDir, type TempDir } from "./support/tables.js";

const job: JobRecord = {
  type: "job",
  version: 1,
  spellId: "echo",
  input: "/in.csv",
  inputFormat: "csv",
  output: "/out.csv",
  outputFormat: "csv",
  chunkSize: 2,
  mapping: { rename: {} },
  csvGuard: true,
  baseUrl: "http://127.0.0.1:1",
  pollBaseUrl: "http://127.0.0.1:2",
  authHeader: "authorization",
};

describe("Journal", () => {
  let temp: TempDir;
  beforeEach(() => (temp = tempDir()));
  afterEach(() => temp.remove());

  it("should drop a torn last line when reopened, and append after the last whole record", () => {
    const file = temp.file("j");
    const journal = Journal.create(file, job);
    journal.append({ type: "intent", window: 0, firstRow: 0, count: 2 });
    journal.close();
    appendFileSync(file, '{"type":"group","win');
    const { journal: reopened, records } = Journal.open(file);
    expect(records.map((record) => record.type)).toEqual(["job", "intent"]);
    reopened.append({ type: "group", window: 0, groupId: "g0" });
    reopened.close();
    expect(readFileSync(file, "utf8").split("\n").slice(1)).toEqual([
      '{"type":"intent","window":0,"firstRow":0,"count":2}',
      '{"type":"group","window":0,"groupId":"g0"}',
      "",
    ]);
  });

  it("should refuse a file that is not a journal, naming it", () => {
    writeFileSync(temp.file("x"), "hello\n");
    expect(() => Journal.read(temp.file("x"))).toThrowError(/line 1 is not a journal record/);
  });
});

describe("replayJournal", () => {
  it("should know each window's group, the rows written and the last outcome", () => {
    const state = replayJournal([
      job,
      { type: "layout", layout: { inputColumns: ["a"], outputNames: [] }, headerBytes: 20 },
      { type: "intent", window: 0, firstRow: 0, count: 2 },
      { type: "group", window: 0, groupId: "g0" },
      { type: "intent", window: 1, firstRow: 2, count: 2 },
      { type: "written", rows: 2, bytes: 40 },
      { type: "end", outcome: "interrupted", rows: 2 },
    ]);
    expect(state.writtenRows).toBe(2);
    expect(state.writtenBytes).toBe(40);
    expect(state.outcome).toBe("interrupted");
    expect([...state.windows.entries()]).toEqual([
      [0, { count: 2, groupId: "g0" }],
      [1, { count: 2 }],
    ]);
  });
});
