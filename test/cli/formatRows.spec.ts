import { formatHeader, formatRows } from "../../cli/job/formatRows.js";
import { guardCsvCell } from "../../src/index.js";
import { chooseOutputColumns, headerOf } from "../../cli/table/OutputColumns.js";

describe("guardCsvCell", () => {
  it("should prefix every formula-starting character with a quote and leave other text alone", () => {
    expect(["=A1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"].map(guardCsvCell)).toEqual([
      "'=A1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
    ]);
    expect(["", "plain", "a=b", " =x", "'=x"].map(guardCsvCell)).toEqual([
      "",
      "plain",
      "a=b",
      " =x",
      "'=x",
    ]);
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

  it("should guard the header too, use tabs for TSV and write JSONL values as they are", () => {
    expect(formatHeader({ inputColumns: ["=x"], outputNames: [] }, csv)).toBe(
      "'=x,status,error,other_outputs\n"
    );
    expect(
      formatRows(
        [{ values: { text: "-1" }, status: "success", outputs: { summary: "=2" } }],
        layout,
        { format: "tsv", csvGuard: true }
      )
    ).toBe("'-1\tsuccess\t'=2\t\t\t\n");
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
