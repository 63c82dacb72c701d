import fc from "fast-check";
import iconv from "iconv-lite";

/** A cell of an input table: text in CSV, any JSON scalar in JSONL. */
export type Cell = string | number | boolean;

/**
 * An input table as the model knows it: its rows with their exact values, and how its file is
 * written (format, separator, line ends, BOM, encoding). Every row has a unique `id` (digits),
 * so a start counted at the service names its row.
 */
export interface ModelTable {
  format: "csv" | "jsonl";
  /** CSV only. */
  delimiter: "," | ";";
  crlf: boolean;
  bom: boolean;
  encoding: "utf8" | "windows-1252";
  /** CSV: the header; JSONL: every key any row has, in order of first appearance. */
  columns: string[];
  rows: Record<string, Cell>[];
}

/** Column names that collide with the tool's own columns or with JavaScript's object keys. */
const AWKWARD_NAMES = ["status", "error", "other_outputs", "__proto__", "text", "amount", "phone"];

/** Cells that a spreadsheet, a CSV writer or a decoder could get wrong. */
const AWKWARD_CELLS = [
  "-3.5",
  "+44 20 7946 0000",
  "@user",
  "=1+1",
  '=HYPERLINK("http://evil.example","click")',
  "line\rbreak",
  "line\nbreak",
  "crlf\r\ninside",
  "plain words",
  "",
  "café crème",
  "1,5",
  "a;b",
  '"quoted"',
  "  padded  ",
  "open",
  "closed",
  "error",
  "cancelled",
  "!fail this row",
];

/** Characters Windows-1252 cannot write: such cells are left out of Windows-1252 tables. */
function encodable(text: string): boolean {
  return iconv.decode(iconv.encode(text, "windows-1252"), "windows-1252") === text;
}

/**
 * Generates an awkward input table of `minRows`..`maxRows` rows: clashing column names, formula
 * and number text, lone CR and LF in cells, BOM, CRLF, Windows-1252, `;`-separated CSV, JSONL
 * with keys that vary from row to row.
 * @param minRows fewest rows
 * @param maxRows most rows
 * @return the arbitrary
 */
export function modelTableArbitrary(minRows: number, maxRows: number): fc.Arbitrary<ModelTable> {
  return fc
    .record({
      format: fc.constantFrom<"csv" | "jsonl">("csv", "csv", "jsonl"),
      delimiter: fc.constantFrom<"," | ";">(",", ",", ";"),
      crlf: fc.boolean(),
      bom: fc.boolean(),
      encoding: fc.constantFrom<"utf8" | "windows-1252">("utf8", "utf8", "utf8", "windows-1252"),
      extra: fc.uniqueArray(fc.constantFrom(...AWKWARD_NAMES), { minLength: 1, maxLength: 3 }),
      idFirst: fc.boolean(),
      cells: fc.array(
        fc.array(fc.oneof(fc.constantFrom(...AWKWARD_CELLS), fc.integer({ min: -99, max: 99 })), {
          minLength: 4,
          maxLength: 4,
        }),
        { minLength: minRows, maxLength: maxRows }
      ),
      missing: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    })
    .map(({ format, delimiter, crlf, bom, encoding, extra, idFirst, cells, missing }) => {
      const columns = idFirst ? ["id", ...extra] : [...extra, "id"];
      const rows = cells.map((rowCells, index) => {
        // No prototype: a column named "__proto__" is a plain key, read and written as data.
        const row = Object.create(null) as Record<string, Cell>;
        columns.forEach((column, place) => {
          if (column === "id") {
            row.id = String(index + 1);
            return;
          }
          let value: Cell = rowCells[place % 4];
          if (format === "csv" || typeof value === "string") value = String(value);
          if (encoding === "windows-1252" && typeof value === "string" && !encodable(value))
            value = "plain";
          // JSONL rows after the first may leave a key out.
          if (format === "jsonl" && index > 0 && missing[place % 4] && (index + place) % 2 === 0)
            return;
          row[column] = value;
        });
        return row;
      });
      return {
        format,
        delimiter: format === "csv" ? delimiter : ",",
        crlf,
        bom,
        encoding: format === "csv" ? encoding : "utf8",
        columns,
        rows,
      } satisfies ModelTable;
    });
}

function csvField(value: Cell, delimiter: string): string {
  const text = String(value);
  return /["\r\n]/.test(text) || text.includes(delimiter) || text !== text.trim()
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}

/**
 * The bytes of a table's file, as a user's tool would have written them.
 * @param table the table
 * @return the file content
 */
export function tableBytes(table: ModelTable): Buffer {
  const end = table.crlf ? "\r\n" : "\n";
  let text: string;
  if (table.format === "jsonl") {
    text = table.rows.map((row) => JSON.stringify(row)).join(end) + end;
  } else {
    const lines = [table.columns, ...table.rows.map((row) => table.columns.map((c) => row[c]))];
    text =
      lines
        .map((cells) =>
          cells.map((cell) => csvField(cell ?? "", table.delimiter)).join(table.delimiter)
        )
        .join(end) + end;
  }
  if (table.encoding === "windows-1252") {
    // Excel's "CSV" on Windows: no BOM in that encoding.
    return iconv.encode(text, "windows-1252");
  }
  return Buffer.concat([
    table.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
    Buffer.from(text),
  ]);
}

/**
 * The flags that send a table's rows: a column named `__proto__` goes under another input name
 * (`--map`), as the emulator, like many JSON services, refuses the key; the column itself stays
 * in the output as data.
 * @param table the table
 * @return the flags
 */
export function mappingFlags(table: ModelTable): string[] {
  return table.columns.includes("__proto__") ? ["--map", "__proto__=proto_"] : [];
}

/**
 * The inputs a row must reach the spell with: every column, values exactly as in the file
 * (under the names of `mappingFlags`).
 * @param row the row
 * @return the inputs
 */
export function sentInputs(row: Record<string, Cell>): Record<string, Cell> {
  const inputs = Object.create(null) as Record<string, Cell>;
  for (const [key, value] of Object.entries(row))
    inputs[key === "__proto__" ? "proto_" : key] = value;
  return inputs;
}

/** The `checksum` spell's digest of a row's inputs, as the emulator computes it. */
export { checksumOf } from "../../../emulator/spellBehaviours.js";

/** Whether the checksum spell fails this row. */
export function rowFails(row: Record<string, Cell>): boolean {
  return Object.values(row).some((value) => typeof value === "string" && value.includes("!fail"));
}

/**
 * The text a CSV output cell holds for a value (as the command writes it, unguarded).
 * @param value the value, or undefined for a key the row does not have
 * @return the cell text
 */
export function cellText(value: Cell | undefined): string {
  return value === undefined ? "" : String(value);
}

/**
 * A short description of a table, for failure reports.
 * @param table the table
 * @return one line
 */
export function describeTable(table: ModelTable): string {
  const form =
    table.format === "jsonl"
      ? "jsonl"
      : `csv "${table.delimiter}"${table.encoding === "utf8" ? "" : " windows-1252"}`;
  return `${form}${table.bom ? " +BOM" : ""}${table.crlf ? " CRLF" : ""} [${table.columns.join(", ")}] × ${table.rows.length}`;
}
