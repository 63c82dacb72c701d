import { formatHeader, formatRows } from "../../cli/job/formatRows.js";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { guardCsvCell } from "../../cli/table/guardCsvCell.js";
import { chooseOutputColumns, headerOf } from "../../cli/table/OutputColumns.js";

describe("guardCsvCell", () => {
  it("should prefix every formula-starting character with a quote and leave other text alone", () => {
    expect(
      ["=A1", "+A1", "-A1", "@SUM(A1)", "\tx", "\rx", "-1+2", "+44 20 7946 0000"].map(guardCsvCell)
    ).toEqual(["'=A1", "'+A1", "'-A1", "'@SUM(A1)", "'\tx", "'\rx", "'-1+2", "'+44 20 7946 0000"]);
    expect(["", "plain", "a=b", " =x", "'=x"].map(guardCsvCell)).toEqual([
      "",
      "plain",
      "a=b",
      " =x",
      "'=x",
    ]);
  });

  it("should leave a plain number alone: a number is not a formula", () => {
    const numbers = ["-3.5", "+44", "-1", "+1.", "-.5", "-1e3", "+2E-7", "0"];
    expect(numbers.map(guardCsvCell)).toEqual(numbers);
  });
});

describe("formatRows", () => {
  const layout = { inputColumns: ["text"], outputNames: ["summary", "words"] };
  const csv = { format: "csv" as const, csvGuard: true };

  it("should write success outputs in their columns and keep unknown outputs in other_outputs", () => {
    const text = formatRows(
      [
        {
          values: { text: "A, b" },
          status: "success",
          outputs: { summary: "A", words: 2, extra: [1] },
        },
      ],
      layout,
      csv
    );
    expect(text).toBe('"A, b",success,A,2,,"{""extra"":[1]}"\n');
  });

  it("should write an empty cell for a name a row does not have, never an inherited value", () => {
    // JSONL rows with varying keys: the second row has no "__proto__" or "constructor".
    const names = { inputColumns: ["__proto__", "id"], outputNames: ["constructor"] };
    const first = JSON.parse('{"__proto__":"x","id":"1"}') as Record<string, unknown>;
    const text = formatRows(
      [
        { values: first, status: "success", outputs: JSON.parse('{"constructor":"c"}') },
        { values: { id: "2" }, status: "success", outputs: {} },
      ],
      names,
      csv
    );
    expect(text).toBe("x,1,success,c,,\n,2,success,,,\n");
  });

  it("should put the reason of a row that did not succeed in the error column", () => {
    const text = formatRows(
      [
        { values: { text: "x" }, status: "failure", outputs: { reason: "bad input" } },
        { values: { text: "y" }, status: "cancelled", outputs: { error: "Cancelled (Ctrl-C)" } },
      ],
      layout,
      csv
    );
    expect(text).toBe("x,failure,,,bad input,\ny,cancelled,,,Cancelled (Ctrl-C),\n");
  });

  it("should guard the service's names in the header, use tabs for TSV and write JSONL values as they are", () => {
    expect(formatHeader({ inputColumns: ["=x"], outputNames: ["@y"] }, csv)).toBe(
      "=x,status,'@y,error,other_outputs\n"
    );
    expect(
      formatRows(
        [{ values: { text: "-1" }, status: "success", outputs: { summary: "=2" } }],
        layout,
        { format: "tsv", csvGuard: true }
      )
    ).toBe("-1\tsuccess\t'=2\t\t\t\n");
    expect(
      formatRows(
        [{ values: { n: 1 }, status: "success", outputs: { formula: "=1+1", list: [1] } }],
        layout,
        {
          format: "jsonl",
          csvGuard: true,
        }
      )
    ).toBe('{"input":{"n":1},"status":"success","outputs":{"formula":"=1+1","list":[1]}}\n');
  });
});

describe("formatRows: the guard's scope", () => {
  const layout = { inputColumns: ["amount", "phone", "note"], outputNames: ["reply", "total"] };
  const csv = { format: "csv" as const, csvGuard: true };

  it("should write the input columns byte for byte and guard only the service's cells", () => {
    const text = formatRows(
      [
        {
          values: { amount: "-3.5", phone: "+44 20 7946 0000", note: "=1+1" },
          status: "success",
          outputs: { reply: "+44 20 7946 0000", total: "-3.5" },
        },
        {
          values: { amount: "+7", phone: "@home", note: "-x" },
          status: "failure",
          outputs: { reason: '=HYPERLINK("http://evil.example")' },
        },
      ],
      layout,
      csv
    );
    expect(parse(text)).toEqual([
      ["-3.5", "+44 20 7946 0000", "=1+1", "success", "'+44 20 7946 0000", "-3.5", "", ""],
      ["+7", "@home", "-x", "failure", "", "", `'=HYPERLINK("http://evil.example")`, ""],
    ]);
  });

  it("should write the service's cells as they are with --no-csv-guard", () => {
    const text = formatRows(
      [
        {
          values: { amount: "1", phone: "", note: "" },
          status: "success",
          outputs: { reply: "=2" },
        },
      ],
      layout,
      { format: "csv", csvGuard: false }
    );
    expect(text).toBe("1,,,success,=2,,,\n");
  });

  it("should quote a cell holding a lone carriage return, so no reader splits the row there", () => {
    const text = formatRows(
      [
        {
          values: { amount: "1\r=1+1", phone: "a\nb", note: "c\r\nd" },
          status: "success",
          outputs: { reply: 'x\r=HYPERLINK("http://evil.example")', total: "\r=1+1" },
        },
      ],
      layout,
      csv
    );
    expect(text).toBe(
      '"1\r=1+1","a\nb","c\r\nd",success,"x\r=HYPERLINK(""http://evil.example"")","\'\r=1+1",,\n'
    );
    // Every line break of the text is inside quotes: split on CR, LF or CRLF, outside quotes
    // there is one record.
    const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, "Q");
    expect(outsideQuotes).toBe("Q,Q,Q,success,Q,Q,,\n");
  });

  it("should keep every input cell exact and every output cell safe, whatever their text (generated)", () => {
    const cell = fc.oneof(
      fc.string(),
      fc.constantFrom("-3.5", "+44 20 7946 0000", "=1+1", "@x", "\r=1+1", "a\rb", "\t", "-1e3"),
      fc.stringMatching(/^[=+\-@\t\r\n",;a-z0-9. ]{0,8}$/)
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 5 }),
        fc.constantFrom("csv" as const, "tsv" as const),
        (rows, format) => {
          const text = formatRows(
            rows.map(([amount, phone, reply, total]) => ({
              values: { amount, phone, note: "" },
              status: "success" as const,
              outputs: { reply, total },
            })),
            layout,
            { format, csvGuard: true }
          );
          const records = parse(text, {
            delimiter: format === "tsv" ? "\t" : ",",
            relax_quotes: false,
          }) as string[][];
          // Assertions that throw: fast-check shrinks a failure and prints its seed.
          assert.equal(records.length, rows.length);
          records.forEach((record, index) => {
            const [amount, phone, reply, total] = rows[index];
            assert.deepEqual(record.slice(0, 2), [amount, phone]);
            for (const [written, original] of [
              [record[4], reply],
              [record[5], total],
            ]) {
              assert.ok(written === original || written === `'${original}`, written);
              const isNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(written);
              if (!isNumber) assert.doesNotMatch(written, /^[=+\-@\t\r]/);
            }
          });
        }
      ),
      { numRuns: 300 }
    );
  });
});

describe("chooseOutputColumns", () => {
  it("should take the outputs of successful rows in order of appearance, or the names picked", () => {
    expect(chooseOutputColumns(["t"], [{ b: 1 }, { a: 1, b: 2 }]).outputNames).toEqual(["b", "a"]);
    expect(chooseOutputColumns(["t"], [{ b: 1 }], ["z"]).outputNames).toEqual(["z"]);
  });

  it("should keep input columns named like the tool's columns distinct, without dots", () => {
    expect(headerOf({ inputColumns: ["text", "status"], outputNames: ["text", "n"] })).toEqual([
      "text",
      "status",
      "status_spellrun",
      "text_output",
      "n",
      "error",
      "other_outputs",
    ]);
    const clashing = ["status", "error", "other_outputs", "__proto__", "status_spellrun"];
    const header = headerOf({ inputColumns: clashing, outputNames: ["error", "__proto__"] });
    expect(header).toEqual([
      ...clashing,
      "status_spellrun_2",
      "error_output",
      "__proto___output",
      "error_spellrun",
      "other_outputs_spellrun",
    ]);
    expect(new Set(header).size).toBe(header.length);
    expect(header.some((name) => name.includes("."))).toBeFalse();
  });
});
