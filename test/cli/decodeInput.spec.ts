import assert from "node:assert/strict";
import { Readable } from "node:stream";
import fc from "fast-check";
import iconv from "iconv-lite";
import { decodeInput } from "../../cli/table/decodeInput.js";

/** Feeds `bytes` to the decoder in chunks of `size` and collects the text (or the error). */
async function decodeInChunks(
  bytes: Buffer,
  size: number,
  encoding?: string
): Promise<{ text: string } | { error: string }> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  let text = "";
  try {
    for await (const part of Readable.from(chunks).pipe(decodeInput("in.csv", encoding))) {
      text += part as string;
    }
    return { text };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Text of letters, accents, CJK, emoji and line breaks: every UTF-8 length from 1 to 4 bytes. */
const text = fc
  .array(fc.constantFrom("a", "Z", ",", "\n", "\r\n", "é", "ß", "€", "中", "😀", " ", '"'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));

describe("decodeInput (generated)", () => {
  it("should decode UTF-8 with or without a BOM and UTF-16 LE/BE with a BOM exactly, however the bytes are chunked", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom("utf-8", "utf-8-bom", "utf-16le", "utf-16be"),
        fc.integer({ min: 1, max: 9 }),
        async (original, form, size) => {
          const utf16 = Buffer.from(original, "utf16le");
          const bytes =
            form === "utf-8"
              ? Buffer.from(original)
              : form === "utf-8-bom"
                ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(original)])
                : form === "utf-16le"
                  ? Buffer.concat([Buffer.from([0xff, 0xfe]), utf16])
                  : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(utf16).swap16()]);
          // Assertions that throw: fast-check shrinks a failure and prints its seed.
          assert.deepEqual(await decodeInChunks(bytes, size), { text: original });
        }
      ),
      { numRuns: 300 }
    );
  });

  it("should refuse a byte that is not UTF-8, naming its line and offset, wherever it is and however chunked", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.constantFrom(0xe9, 0x93, 0xff, 0xc0, 0x80),
        fc.integer({ min: 1, max: 9 }),
        async (before, after, bad, size) => {
          // After the bad byte, ASCII (a lead byte followed by a non-continuation byte).
          const bytes = Buffer.concat([
            Buffer.from(before),
            Buffer.from([bad]),
            Buffer.from(`x${after}`),
          ]);
          const offset = Buffer.byteLength(before);
          const line = before.split("\n").length;
          const result = await decodeInChunks(bytes, size);
          const hex = bad.toString(16).toUpperCase();
          assert.ok("error" in result, "refused");
          assert.ok(
            result.error.includes(
              `in.csv line ${line}: byte 0x${hex} (offset ${offset} of the file)`
            ),
            result.error
          );
          assert.ok(result.error.includes("--encoding windows-1252"));
        }
      ),
      { numRuns: 300 }
    );
  });

  it("should name a character cut short by the end of the file", async () => {
    const result = await decodeInChunks(Buffer.from([0x61, 0x0a, 0xe2, 0x82]), 1);
    expect(result).toEqual({ error: jasmine.stringContaining("line 2: byte 0xE2 (offset 2") });
  });

  it("should decode what --encoding names, and Windows-1252 text round trips", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("a", "é", "€", "“", "”", "\n", "ß", "œ"), { maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        async (parts, size) => {
          const original = parts.join("");
          const bytes = iconv.encode(original, "windows-1252");
          assert.deepEqual(await decodeInChunks(bytes, size, "windows-1252"), { text: original });
        }
      ),
      { numRuns: 200 }
    );
  });
});
