import fc from "fast-check";
import { splitBulkChunks } from "../../src/runs/splitBulkChunks.js";
import { SpellRequestTooLargeError } from "../../src/errors/SpellRequestTooLargeError.js";

const bodyBytes = (spellId: string, inputs: readonly unknown[]) =>
  Buffer.byteLength(JSON.stringify({ spellId, inputs }));

describe("splitBulkChunks", () => {
  it("should keep every row once, in order, each chunk within the row and body limits", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.dictionary(
            fc.string({ maxLength: 4 }),
            fc.string({ unit: "binary", maxLength: 100 }),
            { maxKeys: 5 }
          ),
          {
            maxLength: 40,
          }
        ),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 4_000, max: 12_000 }),
        (rows, maxRows, maxBodyBytes) => {
          const chunks = splitBulkChunks("echo", rows, maxRows, maxBodyBytes);
          expect(chunks.flatMap((chunk) => chunk.inputs ?? [])).toEqual(rows);
          for (const chunk of chunks) {
            expect(chunk.size).toBe(chunk.inputs?.length ?? -1);
            expect(chunk.size).toBeGreaterThan(0);
            expect(chunk.size).toBeLessThanOrEqual(maxRows);
            expect(bodyBytes("echo", chunk.inputs ?? [])).toBeLessThanOrEqual(maxBodyBytes);
          }
          // As full as the limits allow: a chunk could not have taken the next chunk's first row.
          chunks.slice(1).forEach((chunk, index) => {
            const before = chunks[index].inputs ?? [];
            const grown = [...before, (chunk.inputs ?? [])[0]];
            expect(grown.length > maxRows || bodyBytes("echo", grown) > maxBodyBytes).toBeTrue();
          });
        }
      )
    );
  });

  it("should refuse a row too large alone, naming it, before any chunk", () => {
    const rows = [{ text: "a" }, { text: "x".repeat(2_000) }];
    expect(() => splitBulkChunks("echo", rows, 500, 1_000)).toThrowMatching(
      (error) => error instanceof SpellRequestTooLargeError && error.row === 1
    );
  });
});
