import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import {
  BulkJobRunner,
  callbackResultWriter,
  parseCheckpointRecord,
  replayCheckpoint,
  type CheckpointRecord,
} from "../../src/index.js";
import { CheckpointFileError, FileCheckpointStore } from "../../src/node/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

/** What `FileCheckpointStore` accepts from a file, and what it refuses before writing to it. */
describe("FileCheckpointStore's reading", () => {
  let dir: string;
  let files = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "spellrun-checkpoint-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A new file holding `text`. */
  function file(text?: string): string {
    const path = join(dir, `job-${files++}.checkpoint`);
    if (text !== undefined) writeFileSync(path, text);
    return path;
  }

  const lines = (...values: unknown[]) =>
    values.map((value) => JSON.stringify(value) + "\n").join("");
  const intent0 = { type: "intent", window: 0, firstRow: 0, count: 5 };
  const group0 = { type: "group", window: 0, groupId: "g0" };

  /** The error `action` threw (fails when it threw none, or another). */
  function refusal(action: () => unknown): CheckpointFileError {
    try {
      action();
    } catch (error) {
      expect(error).toEqual(jasmine.any(CheckpointFileError));
      return error as CheckpointFileError;
    }
    throw new Error("nothing was refused");
  }

  /** Checks that the store refuses the file at `line`, by every way in, and leaves it as it is. */
  function expectRefused(path: string, line: number): CheckpointFileError {
    const before = readFileSync(path, "utf8");
    const store = new FileCheckpointStore(path);
    const error = refusal(() => store.load());
    expect(error.path).toBe(path);
    expect(error.line).toBe(line);
    expect(error.message).toContain(`${path}, line ${line}`);
    refusal(() => store.records());
    refusal(() => store.acquireLease({ owner: "w", ttlMs: 1000 }));
    expect(existsSync(store.leasePath)).toBeFalse();
    refusal(() => store.recordRefused(0));
    refusal(() => new FileCheckpointStore(path).recordIntent({ window: 0, firstRow: 0, count: 1 }));
    expect(readFileSync(path, "utf8")).toBe(before);
    return error;
  }

  it("should refuse a line that is not JSON in the middle of the file", () => {
    expectRefused(file(lines(intent0) + "not a record\n" + lines(group0)), 2);
  });

  it("should refuse an empty line in the middle of the file", () => {
    expectRefused(file(lines(intent0) + "\n" + lines(group0)), 2);
  });

  it("should refuse a bad line at the end of the file when the line is whole", () => {
    expectRefused(file(lines(intent0, group0) + '{"type":"intent","wi\n'), 3);
  });

  it("should refuse a file that is not a checkpoint, and not append to it", () => {
    expectRefused(file('{"hello":1}\n'), 1);
    expectRefused(file('{"hello":1}'), 1);
    expectRefused(file(lines({ id: 1, text: "a" }, { id: 2, text: "b" })), 1);
    expectRefused(file("id,text\n1,a\n"), 1);
    expectRefused(file("hello"), 1);
    // Not ended by a line end, yet not a record cut short: refused, not cut off.
    expectRefused(file('{"type":"intent"}'), 1);
    expectRefused(file('{"type":"note","text":"unfinished'), 1);
    expectRefused(file(lines(intent0) + '{"type":"end","outcome":"done","rows":5}'), 2);
    const error = expectRefused(file(lines({ type: "message", text: "hi" })), 1);
    expect(error.problem).toContain("not a record type");
  });

  it("should refuse records without their fields or with fields out of range", () => {
    expect(expectRefused(file(lines({ type: "intent" })), 1).problem).toContain("window");
    const stringWindow = { ...intent0, window: "0" };
    expect(expectRefused(file(lines(stringWindow)), 1).problem).toContain("window");
    // Window 3 of 500 rows cannot hold a billion.
    const huge = { type: "intent", window: 3, firstRow: 1500, count: 1e9 };
    expect(expectRefused(file(lines(intent0, huge)), 2).problem).toContain("count");
    for (const bad of [
      { ...intent0, count: 0 },
      { ...intent0, count: 2.5 },
      { ...intent0, firstRow: 7 },
      { ...intent0, sent: 6 },
      { type: "intent", window: 2, firstRow: 7, count: 1 },
      { type: "group", window: 0 },
      { type: "group", window: 0, groupId: "" },
      { ...group0, token: { spellId: "s", groupIds: ["g0"], chunkSizes: [-1] } },
      { type: "refused", window: -1 },
      { type: "written", rows: 5, counts: { success: "5" } },
      { type: "written", rows: 5, counts: { paid: 5 } },
      { type: "written", rows: 5, alsoWritten: [7, 6] },
      { type: "written", rows: 5, alsoWritten: [3] },
      { type: "end", outcome: "done", rows: 5 },
      { type: "end", outcome: "complete" },
    ]) {
      expectRefused(file(lines(intent0, bad, group0)), 2);
    }
  });

  it("should show at most a short excerpt of a bad line", () => {
    const line = `{"type":"intent","window":0,"firstRow":0,"count":"5","text":"${"x".repeat(40)}SECRET"}`;
    const error = expectRefused(file(lines(intent0) + line + "\n" + lines(group0)), 2);
    expect(error.message).not.toContain("SECRET");
    expect(error.message.length).toBeLessThan(300 + error.path.length);
  });

  it("should create a checkpoint's missing folder, and run the job into it", async () => {
    const path = join(dir, `new-${files++}`, "jobs", "x.checkpoint");
    const service = new FakeBulkService();
    const written: number[] = [];
    const store = new FileCheckpointStore(path);
    const job = new BulkJobRunner<number>({
      client: service.client(),
      spellId: "echo",
      rows: [1, 2, 3],
      inputsOf: (row) => ({ row }),
      windowSize: 2,
      maxWindows: 1,
      store,
      writer: callbackResultWriter((row) => void written.push(row.index)),
      resume: store.load(),
    });
    const result = await job.run();
    expect(result.outcome).toBe("complete");
    expect(written).toEqual([0, 1, 2]);
    expect(new FileCheckpointStore(path).records().length).toBeGreaterThan(0);
  });

  it("should refuse to start a job on a file that is not a checkpoint, sending nothing", async () => {
    const path = file('{"hello":1}\n');
    const service = new FakeBulkService();
    const job = new BulkJobRunner<number>({
      client: service.client(),
      spellId: "echo",
      rows: [1, 2, 3],
      inputsOf: (row) => ({ row }),
      windowSize: 2,
      maxWindows: 1,
      store: new FileCheckpointStore(path),
      writer: callbackResultWriter(() => undefined),
    });
    await expectAsync(job.run()).toBeRejectedWithError(CheckpointFileError);
    expect(service.starts).toBe(0);
    expect(readFileSync(path, "utf8")).toBe('{"hello":1}\n');
    expect(existsSync(`${path}.lease`)).toBeFalse();
  });

  it("should skip a torn last line, and cut it off before it appends the next record", () => {
    const path = file();
    const store = new FileCheckpointStore(path);
    store.recordIntent({ window: 0, firstRow: 0, count: 5 });
    appendFileSync(path, '{"type":"group","window":0,"gr');
    const resumed = new FileCheckpointStore(path);
    expect(resumed.records()).toEqual([intent0 as CheckpointRecord]);
    resumed.recordGroup(0, "g0");
    expect(readFileSync(path, "utf8")).toBe(lines(intent0, group0));
    expect(new FileCheckpointStore(path).load()?.windows).toEqual(
      new Map([[0, { count: 5, groupId: "g0" }]])
    );
  });

  it("should end a whole last record's line before it appends the next record", () => {
    const path = file(lines(intent0) + JSON.stringify(group0));
    const store = new FileCheckpointStore(path);
    expect(store.records()).toEqual([intent0, group0] as CheckpointRecord[]);
    store.recordRefused(1);
    expect(readFileSync(path, "utf8")).toBe(lines(intent0, group0, { type: "refused", window: 1 }));
  });

  it("should take a file holding only a torn first record for an empty checkpoint", () => {
    const path = file('{"ty');
    const store = new FileCheckpointStore(path);
    expect(store.load()).toBeUndefined();
    store.recordRefused(1);
    expect(readFileSync(path, "utf8")).toBe(lines({ type: "refused", window: 1 }));
  });

  describe("with generated records", () => {
    const index = fc.nat({ max: 100_000 });
    const intent = fc
      .record({ window: index, windowSize: fc.integer({ min: 1, max: 1000 }), count: fc.nat() })
      .chain(({ window, windowSize, count }) =>
        fc.record(
          {
            type: fc.constant("intent" as const),
            window: fc.constant(window),
            firstRow: fc.constant(window * windowSize),
            count: fc.constant((count % windowSize) + 1),
            sent: fc.nat({ max: (count % windowSize) + 1 }),
            fingerprint: fc.stringMatching(/^[0-9a-f]{0,64}$/),
          },
          { requiredKeys: ["type", "window", "firstRow", "count"] }
        )
      );
    const token = fc.record(
      {
        spellId: fc.string(),
        groupIds: fc.array(fc.string(), { maxLength: 3 }),
        chunkSizes: fc.array(fc.nat(), { maxLength: 3 }),
        rows: fc.array(fc.integer({ min: -1, max: 50 }), { maxLength: 5 }),
        mayHaveSent: fc.nat({ max: 3 }),
      },
      { requiredKeys: ["spellId", "groupIds", "chunkSizes"] }
    );
    const group = fc.record(
      {
        type: fc.constant("group" as const),
        window: index,
        groupId: fc.string({ minLength: 1 }),
        token,
      },
      { requiredKeys: ["type", "window", "groupId"] }
    );
    const refused = fc.record({ type: fc.constant("refused" as const), window: index });
    const written = fc
      .record({
        rows: index,
        counts: fc.option(
          fc.dictionary(
            fc.constantFrom("success", "failure", "error", "cancelled", "unknown", "expired"),
            fc.nat()
          ),
          { nil: undefined }
        ),
        past: fc.uniqueArray(fc.nat({ max: 1000 }), { maxLength: 5 }),
      })
      .map(({ rows, counts, past }) => ({
        type: "written" as const,
        rows,
        ...(counts ? { counts } : {}),
        ...(past.length > 0
          ? { alsoWritten: past.sort((a, b) => a - b).map((row) => rows + row) }
          : {}),
      }));
    const end = fc.record({
      type: fc.constant("end" as const),
      outcome: fc.constantFrom(
        "complete",
        "incomplete",
        "interrupted",
        "input-error",
        "service-error",
        "write-error"
      ),
      rows: index,
    });
    const record: fc.Arbitrary<CheckpointRecord> = fc.oneof(intent, group, refused, written, end);

    /** The fields each record needs, and values none of them takes. */
    const required: Record<CheckpointRecord["type"], string[]> = {
      intent: ["window", "firstRow", "count"],
      group: ["window", "groupId"],
      refused: ["window"],
      written: ["rows"],
      end: ["outcome", "rows"],
    };
    const wrongValue = fc.constantFrom<unknown>(undefined, null, "1", -1, 0.5, [], {}, true);

    /** A line that is not a record: not JSON, not an object, or a record spoilt. */
    const corrupted = (valid: CheckpointRecord): fc.Arbitrary<string> =>
      fc.oneof(
        fc.constant(""),
        fc.string().map((text) => `#${text.replace(/[\n{}[\]]/g, "")}`),
        // A prefix of the record's line (never JSON).
        fc.nat().map((cut) => {
          const whole = JSON.stringify(valid);
          return whole.slice(0, cut % whole.length);
        }),
        fc
          .oneof(
            fc.integer(),
            fc.string(),
            fc.constant(null),
            fc.array(fc.nat()),
            fc.record({ hello: fc.nat() })
          )
          .map((value) => JSON.stringify(value).replace(/\n/g, "")),
        fc
          .string({ minLength: 1 })
          .filter((type) => !(type in required))
          .map((type) => JSON.stringify({ ...valid, type })),
        fc
          .record({ field: fc.constantFrom(...required[valid.type]), value: wrongValue })
          // "1" is a wrong window but a right group id: keep only values that spoil the record.
          .filter(({ field, value }) => !parseCheckpointRecord({ ...valid, [field]: value }).ok)
          .map(({ field, value }) => JSON.stringify({ ...valid, [field]: value }))
      );

    it("should read back any sequence of valid records as written", () => {
      fc.assert(
        fc.property(fc.array(record, { maxLength: 12 }), (records) => {
          const path = file(lines(...records));
          const store = new FileCheckpointStore(path);
          expect(store.records()).toEqual(records);
          expect(store.load()).toEqual(
            records.length === 0 ? undefined : replayCheckpoint(records)
          );
          for (const one of records)
            expect(parseCheckpointRecord(one)).toEqual({ ok: true, record: one });
        }),
        { numRuns: 100 }
      );
    });

    it("should refuse any file with one corrupted line before its last, and leave it as it is", () => {
      const scenario = fc.array(record, { minLength: 2, maxLength: 8 }).chain((records) =>
        fc.nat({ max: records.length - 2 }).chain((place) =>
          corrupted(records[place] as CheckpointRecord).map((line) => ({
            records,
            place,
            line,
          }))
        )
      );
      fc.assert(
        fc.property(scenario, fc.boolean(), ({ records, place, line }, tornTail) => {
          const text = records
            .map((one, at) => (at === place ? line : JSON.stringify(one)) + "\n")
            .join("");
          // A torn last line is tolerated; the corrupted one is still refused.
          const path = file(text + (tornTail ? '{"type":"wr' : ""));
          expectRefused(path, place + 1);
        }),
        { numRuns: 100 }
      );
    });
  });
});
