import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import iconv from "iconv-lite";
import { letterColumnName, type InputReading } from "../../cli/table/InputReading.js";
import { readInputRows } from "../../cli/table/readInputRows.js";

/** Cell text: separators, quotes, line breaks (lone CR too), numbers and formula starts, accents. */
const cell = fc
  .array(
    fc.constantFrom(
      "a",
      "Z",
      "1",
      ",",
      ";",
      "|",
      "\t",
      '"',
      "\n",
      "\r",
      "\r\n",
      " ",
      "-3.5",
      "=1+1",
      "+44 20",
      "é",
      "€",
      "“"
    ),
    { maxLength: 6 }
  )
  .map((parts) => parts.join(""));

describe("readInputRows (generated)", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), "spellrun-read-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("should read back every cell exactly, whatever its delimiter, encoding, BOM and header row", async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.record({
            width: fc.constant(width),
            rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), {
              minLength: 1,
              maxLength: 6,
            }),
          })
        ),
        fc.constantFrom(",", ";", "\t", "|"),
        fc.constantFrom("utf-8", "utf-8-bom", "utf-16le-bom", "windows-1252"),
        fc.boolean(),
        async ({ width, rows }, delimiter, encoding, headerRow) => {
          const header = Array.from({ length: width }, (_, index) => `col${index}`);
          const text = stringify(headerRow ? [header, ...rows] : rows, {
            delimiter,
            record_delimiter: "\n",
            quoted_empty: true,
            quoted_match: /\r/,
          });
          const bytes =
            encoding === "utf-8"
              ? Buffer.from(text)
              : encoding === "utf-8-bom"
                ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
                : encoding === "utf-16le-bom"
                  ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])
                  : iconv.encode(text, "windows-1252");
          const name = path.join(dir, `in${file++}.csv`);
          writeFileSync(name, bytes);
          const reading: InputReading = {
            ...(delimiter === "," ? {} : { delimiter }),
            ...(encoding === "windows-1252" ? { encoding } : {}),
            ...(headerRow ? {} : { headerRow: false as const }),
          };
          const table = readInputRows(name, "csv", reading);
          const read: Record<string, unknown>[] = [];
          for await (const row of table.rows) read.push(row.values);
          const names = headerRow ? header : header.map((_, index) => letterColumnName(index));
          // Assertions that throw: fast-check shrinks a failure and prints its seed.
          assert.deepEqual(table.columns(), names);
          assert.deepEqual(
            read,
            rows.map((cells) =>
              Object.fromEntries(cells.map((value, index) => [names[index], value]))
            )
          );
        }
      ),
      { numRuns: 200 }
    );
  });
});
