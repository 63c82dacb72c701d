import { blockAddress, columnName, parseAddress } from "../../taskpane/sheet/a1Address.js";
import { decodeIndexes, encodeIndexes } from "../../taskpane/storedJob/indexRanges.js";
import { chunkByBytes, payloadBytes } from "../../taskpane/sheet/payloadBytes.js";
import { defaultMapping, isExcelError, planBulk } from "../../taskpane/bulk/planBulk.js";
import { formatDuration, progressEstimate } from "../../taskpane/bulk/progressEstimate.js";
import type { SelectionData } from "../../taskpane/sheet/readSelection.js";
import { rowFingerprint } from "../../taskpane/sheet/rowFingerprint.js";
import { statusText } from "../../taskpane/sheet/statusText.js";
import { toCellWrite } from "../../taskpane/sheet/toCellWrite.js";

describe("taskpane toCellWrite", () => {
  it("should write text, including formula-looking text, into Text-formatted cells", () => {
    for (const text of ["=1+1", "+1", "-x", "@a", "007", "plain"]) {
      expect(toCellWrite(text)).toEqual({ value: text, numberFormat: "@" });
    }
  });
  it("should keep numbers and booleans as they are, in General cells", () => {
    expect(toCellWrite(0.25)).toEqual({ value: 0.25, numberFormat: "General" });
    expect(toCellWrite(false)).toEqual({ value: false, numberFormat: "General" });
    expect(toCellWrite(null)).toEqual({ value: "", numberFormat: "General" });
  });
  it("should turn objects and arrays into JSON text and NaN into text", () => {
    expect(toCellWrite({ a: [1, "b"] })).toEqual({ value: '{"a":[1,"b"]}', numberFormat: "@" });
    expect(toCellWrite(["x"])).toEqual({ value: '["x"]', numberFormat: "@" });
    expect(toCellWrite(Number.NaN).value).toBe("NaN");
  });
  it("should cut over-long text to a cell's limit with a marker, as the custom functions do", () => {
    const cell = toCellWrite("x".repeat(100_000));
    expect(cell.numberFormat).toBe("@");
    expect(String(cell.value).length).toBe(32_767);
    expect(String(cell.value)).toMatch(/… \[cut; 100,000 characters in all\]$/);
  });
});

describe("a1Address", () => {
  it("should convert between column indexes, letters and addresses", () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(["A", "Z", "AA", "AB", "ZZ", "AAA"]);
    expect(parseAddress("'Q3 ''leads'''!$B$2:D9")).toEqual({
      sheet: "Q3 'leads'",
      block: { top: 1, left: 1, rowCount: 8, columnCount: 3 },
    });
    expect(blockAddress(parseAddress("Sheet1!AA10:AB20").block)).toBe("AA10:AB20");
    expect(blockAddress({ top: 0, left: 0, rowCount: 1, columnCount: 1 })).toBe("A1");
    expect(() => parseAddress("Sheet1!A:A")).toThrowError(/Not a block/);
  });
});

describe("indexRanges", () => {
  it("should round-trip index lists compactly", () => {
    const indexes = [0, 1, 2, 3, 7, 9, 10];
    expect(encodeIndexes(indexes)).toBe("0-3,7,9-10");
    expect(decodeIndexes(encodeIndexes(indexes))).toEqual(indexes);
    expect(decodeIndexes("")).toEqual([]);
    expect(() => decodeIndexes("a-b")).toThrow();
  });
});

describe("payloadBytes and chunkByBytes", () => {
  it("should estimate JSON bytes of cell arrays, UTF-8 and escapes included", () => {
    expect(payloadBytes([["héllo", 12]])).toBe(2 + (2 + (2 + 6 + 1) + (2 + 1)) + 1);
    expect(payloadBytes('a"b')).toBe(6);
  });
  it("should split items into runs under the budget", () => {
    expect(chunkByBytes(5, () => 40, 100)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    expect(chunkByBytes(2, () => 500, 100)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(chunkByBytes(0, () => 1, 100)).toEqual([]);
  });
});

describe("progressEstimate", () => {
  it("should estimate the time left from the pace so far", () => {
    expect(progressEstimate(0, 30_000, 120, 500)).toEqual({
      elapsedMs: 30_000,
      remainingMs: 95_000,
    });
    expect(progressEstimate(0, 1_000, 0, 5).remainingMs).toBeUndefined();
    expect(progressEstimate(0, 1_000, 5, 5).remainingMs).toBe(0);
    expect([45_000, 185_000, 3_720_000].map(formatDuration)).toEqual([
      "45 s",
      "3 min 05 s",
      "1 h 02 min",
    ]);
  });
});

describe("statusText", () => {
  it("should name the state and the service's message", () => {
    expect(statusText({ state: "success", outputs: { a: 1 } })).toBe("success");
    expect(statusText({ state: "error", outputs: { error: "Cancelled" } })).toBe(
      "error: Cancelled"
    );
    expect(statusText({ state: "failure", outputs: { reason: "bad input" } })).toBe(
      "failure: bad input"
    );
    expect(statusText({ state: "failure", outputs: {} })).toBe(
      "failure: no message from the service"
    );
  });
});

describe("rowFingerprint", () => {
  it("should stay what saved jobs hold (values fixed before it moved onto hashText)", () => {
    expect(rowFingerprint(["Great product", 3])).toBe("5hwrlozp4c");
    expect(rowFingerprint([])).toBe("1mjsfpb3rfi");
    expect(rowFingerprint(["é", null, 1.5])).toBe("2f9xu5cc1wv");
  });
});

describe("planBulk", () => {
  const selection = (
    rows: SelectionData["rows"],
    existing: SelectionData["existing"] = { outputNames: [], cells: [] }
  ): SelectionData => ({
    sheet: "Sheet1",
    sheetId: "{sheet-1}",
    block: { top: 0, left: 0, rowCount: rows.length + 1, columnCount: 3 },
    headers: ["text", " language ", "notes"],
    rows,
    existing,
    syncs: 0,
  });

  it("should make one run per non-blank row, with renamed and left-out columns", () => {
    const mapping = defaultMapping(["text", " language ", "notes"]);
    mapping[0].inputName = "body";
    mapping[2].inputName = null;
    const plan = planBulk(
      selection([
        ["hi", "fr", "x"],
        ["", "", "only a note"],
        ["yo", "de", ""],
      ]),
      mapping,
      {
        onlyRowsWithoutOutputs: false,
      }
    );
    expect(plan.problems).toEqual([]);
    expect(plan.blankRows).toBe(1);
    expect(plan.rows.map((row) => [row.offset, row.inputs])).toEqual([
      [0, { body: "hi", language: "fr" }],
      [2, { body: "yo", language: "de" }],
    ]);
    expect(plan.rows[0].fingerprint).toBe(rowFingerprint(["hi", "fr"]));
    expect(plan.distinctRows).toBe(2);
  });

  it("should count rows with identical inputs once in distinctRows (they share one run)", () => {
    const plan = planBulk(
      selection([
        ["hi", "fr", "a"],
        ["hi", "fr", "b"],
        ["hi", "de", "c"],
      ]),
      defaultMapping(["text", " language ", ""]),
      { onlyRowsWithoutOutputs: false }
    );
    expect(plan.rows.length).toBe(3);
    expect(plan.distinctRows).toBe(2);
  });

  it("should leave out rows that already have outputs when asked", () => {
    const existing = {
      outputNames: ["summary"],
      cells: [
        ["success", "done"],
        ["error: x", ""],
        ["", ""],
      ],
    };
    const rows = [
      ["a", "", ""],
      ["b", "", ""],
      ["c", "", ""],
    ];
    const mapping = defaultMapping(["text", "", ""]);
    expect(
      planBulk(selection(rows, existing), mapping, { onlyRowsWithoutOutputs: true }).rows.map(
        (r) => r.offset
      )
    ).toEqual([1, 2]);
    expect(
      planBulk(selection(rows, existing), mapping, { onlyRowsWithoutOutputs: false }).rows.length
    ).toBe(3);
  });

  it("should refuse duplicate names, no inputs, and an occupied column on the right", () => {
    const twice = defaultMapping(["a", "a", ""]);
    expect(
      planBulk(selection([["1", "2", ""]]), twice, { onlyRowsWithoutOutputs: false }).problems
    ).toEqual(['The input name "a" is used twice.']);
    const none = defaultMapping(["", "", ""]);
    expect(
      planBulk(selection([["1", "2", ""]]), none, { onlyRowsWithoutOutputs: false }).problems[0]
    ).toMatch(/No column/);
    const blocked = selection([["1", "", ""]], {
      outputNames: [],
      cells: [],
      blockingHeader: "Totals",
    });
    expect(
      planBulk(blocked, defaultMapping(["t", "", ""]), { onlyRowsWithoutOutputs: false })
        .problems[0]
    ).toMatch(/Totals/);
  });
});

describe("planBulk input hygiene", () => {
  const selection = (
    headers: SelectionData["headers"],
    rows: SelectionData["rows"]
  ): SelectionData => ({
    sheet: "Sheet1",
    sheetId: "{sheet-1}",
    block: { top: 0, left: 1, rowCount: rows.length + 1, columnCount: headers.length },
    headers,
    rows,
    existing: { outputNames: [], cells: [] },
    syncs: 0,
  });
  const plan = (data: SelectionData) =>
    planBulk(data, defaultMapping(data.headers), { onlyRowsWithoutOutputs: false });

  it("should not send rows whose inputs hold an Excel error, and say which input holds which", () => {
    const result = plan(
      selection(
        ["text", "lang"],
        [
          ["ok", "fr"],
          ["#N/A", "fr"],
          ["fine", "#DIV/0!"],
        ]
      )
    );
    expect(result.rows.map((row) => row.offset)).toEqual([0]);
    expect(result.errorRows).toEqual([
      { offset: 1, status: 'skipped: input "text" holds #N/A' },
      { offset: 2, status: 'skipped: input "lang" holds #DIV/0!' },
    ]);
    expect(isExcelError("#n/a")).toBeTrue();
    expect(isExcelError("#hashtag")).toBeFalse();
    expect(isExcelError(0)).toBeFalse();
  });

  it("should refuse names that differ only in case", () => {
    expect(plan(selection(["Text", "text"], [["a", "b"]])).problems).toEqual([
      'The input names "Text" and "text" differ only in case; rename one.',
    ]);
  });

  it("should warn when the first row looks like data rather than names", () => {
    expect(plan(selection(["text", "year"], [["a", 2024]])).warnings).toEqual([]);
    expect(plan(selection(["hello", 2023], [["a", 2024]])).warnings[0]).toMatch(
      /first row holds numbers \(2023\)/
    );
    expect(
      plan(
        selection(
          ["same", "row"],
          [
            ["other", "row"],
            ["same", "row"],
          ]
        )
      ).warnings[0]
    ).toMatch(/same as a data row/);
  });

  it("should name a column with data but no header as left out", () => {
    const result = plan(
      selection(
        ["text", "", ""],
        [
          ["a", "note", ""],
          ["b", "", ""],
        ]
      )
    );
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([
      "Column C has data but no name in the first row, so it is left out.",
    ]);
  });
});

describe("planBulk never overwrites", () => {
  const selection = (occupied: Array<{ offset: number; address: string }>): SelectionData => ({
    sheet: "Sheet1",
    sheetId: "{sheet-1}",
    block: { top: 0, left: 0, rowCount: 3, columnCount: 1 },
    headers: ["text"],
    rows: [["a"], ["b"]],
    existing: { outputNames: [], cells: [], occupied },
    syncs: 0,
  });
  const plan = (data: SelectionData) =>
    planBulk(data, defaultMapping(data.headers), { onlyRowsWithoutOutputs: false });

  it("should not run over the user's data in the status or first output column unless columns are inserted", () => {
    const stopped = plan(selection([{ offset: 0, address: "B3" }]));
    expect(stopped.problems[0]).toMatch(
      /Column B holds data of yours \(B3\).*nothing of yours is ever overwritten.*Insert new columns.*pick another column, or stop/
    );
    expect(stopped.conflict).toEqual(["B3"]);
    expect(stopped.insertColumns).toBeFalse();
    expect(plan(selection([{ offset: 1, address: "C2" }])).problems[0]).toMatch(/\(C2\)/);

    const inserted = planBulk(selection([{ offset: 0, address: "B3" }]), defaultMapping(["text"]), {
      onlyRowsWithoutOutputs: false,
      insertColumns: true,
    });
    expect(inserted.problems).toEqual([]);
    expect(inserted.insertColumns).toBeTrue();
    expect(inserted.statusColumn).toBe(1);
    expect(inserted.ownedWidth).toBe(1);
    expect(inserted.warnings[0]).toBe(
      "New columns are inserted at column B for status and outputs; your data there (B3) moves right, unwritten."
    );
  });

  it("should insert columns before a later column that holds data, so outputs never reach it", () => {
    const result = plan(selection([{ offset: 3, address: "E2" }]));
    expect(result.problems).toEqual([]);
    expect(result.ownedWidth).toBe(3);
    expect(result.warnings[0]).toBe(
      "Column E holds data (E2): outputs beyond 2 get new columns inserted before it, so it is not overwritten."
    );
    expect(plan(selection([])).ownedWidth).toBe(8);
  });

  it("should say when outputs of an earlier run of this pane are replaced", () => {
    const data: SelectionData = {
      ...selection([]),
      existing: {
        outputNames: ["echo"],
        cells: [
          ["success", "x"],
          ["", ""],
        ],
        occupied: [],
      },
    };
    const result = plan(data);
    expect(result.rows.length).toBe(2);
    expect(result.ownedWidth).toBe(2);
    expect(result.warnings).toEqual([
      "1 row has outputs of an earlier run of this pane (columns B–C); its outputs are replaced.",
    ]);
  });
});
