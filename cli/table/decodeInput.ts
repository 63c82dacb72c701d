import { Transform, type TransformCallback } from "node:stream";
import iconv from "iconv-lite";
import { InputError } from "../errors/InputError.js";
import { UsageError } from "../errors/UsageError.js";

/** Names that mean UTF-8, read strictly (a byte that is not UTF-8 is refused, not replaced). */
const UTF8_NAMES = new Set(["utf8", "utf-8"]);

/**
 * Checks an `--encoding` name: one that iconv-lite knows (`windows-1252`, `latin1`,
 * `utf-16le`, `shift_jis`, …).
 *
 * ## Example
 * ```ts
 * checkEncoding("windows-1252"); // ok
 * checkEncoding("klingon"); // throws UsageError
 * ```
 * @param name the name given
 * @throws UsageError for a name that no decoder knows
 */
export function checkEncoding(name: string): void {
  if (!iconv.encodingExists(name)) {
    throw new UsageError(
      `--encoding ${name}: no such encoding (e.g. utf-8, windows-1252, latin1, utf-16le, utf-16be, shift_jis)`
    );
  }
}

/**
 * A stream that turns an input file's bytes into text, the same way for CSV, TSV and JSONL:
 *
 * - with `encoding` (`--encoding`): decoded by iconv-lite (a byte order mark of that encoding is
 *   dropped); `utf-8` is read strictly, as below;
 * - else by its byte order mark: UTF-8 (`EF BB BF`), UTF-16 LE (`FF FE`) or BE (`FE FF`), the
 *   mark dropped;
 * - else as UTF-8, strictly: a byte sequence that is not UTF-8 (a Windows-1252 `é` is the byte
 *   `E9`) stops the read with an `InputError` naming the line and the byte's offset and
 *   suggesting `--encoding windows-1252`, instead of sending U+FFFD replacement characters to
 *   paid runs. A NUL in the first two bytes (UTF-16 without a mark) is refused the same way.
 *
 * ## Example
 * ```ts
 * createReadStream("in.csv").pipe(decodeInput("in.csv")).pipe(parser);
 * ```
 * @param name the input's name, for messages
 * @param encoding the `--encoding` name, if given (checked with `checkEncoding`)
 * @return a transform from bytes to text
 */
export function decodeInput(name: string, encoding?: string): Transform {
  const decode = inputDecoder(name, encoding);
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
      try {
        done(null, decode(chunk, false));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback): void {
      try {
        done(null, decode(Buffer.alloc(0), true));
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/**
 * An input file read whole (`spellrun run --input-file`), decoded as `decodeInput` decodes a
 * stream: a byte order mark, `encoding`, else strict UTF-8.
 *
 * ## Example
 * ```ts
 * JSON.parse(decodeInputBytes("inputs.json", readFileSync("inputs.json")));
 * ```
 * @param name the input's name, for messages
 * @param bytes its bytes
 * @param encoding the `--encoding` name, if given
 * @return the text, without a byte order mark
 * @throws InputError for a byte that is not UTF-8 (its line and offset)
 */
export function decodeInputBytes(name: string, bytes: Buffer, encoding?: string): string {
  return inputDecoder(name, encoding)(bytes, true) ?? "";
}

/** The decoding of one input: fed its bytes in order, `end` with the last (possibly empty). */
function inputDecoder(
  name: string,
  encoding: string | undefined
): (chunk: Buffer, end: boolean) => string | undefined {
  let decoder: ((chunk: Buffer, end: boolean) => string) | undefined;
  let head = Buffer.alloc(0);
  const strict = new StrictUtf8(name);

  const choose = (first: Buffer): void => {
    if (encoding !== undefined && !UTF8_NAMES.has(encoding.toLowerCase())) {
      decoder = iconvDecoder(encoding);
    } else if (encoding === undefined && first[0] === 0xff && first[1] === 0xfe) {
      decoder = iconvDecoder("utf-16le");
    } else if (encoding === undefined && first[0] === 0xfe && first[1] === 0xff) {
      decoder = iconvDecoder("utf-16be");
    } else {
      if (encoding === undefined && (first[0] === 0 || first[1] === 0) && first.length > 1) {
        throw new InputError(
          name,
          1,
          "starts with a NUL byte: it looks like UTF-16 without a byte order mark",
          { readingHint: "; pass --encoding utf-16le (or utf-16be)" }
        );
      }
      decoder = (chunk, end) => strict.decode(chunk, end);
    }
  };

  return (chunk, end) => {
    if (!decoder) {
      // A mark is at most 3 bytes: wait for them before choosing.
      head = Buffer.concat([head, chunk]);
      if (head.length < 3 && !end) return undefined;
      chunk = head;
      choose(head);
    }
    const text = (decoder as (chunk: Buffer, end: boolean) => string)(chunk, end);
    return text === "" ? undefined : text;
  };
}

function iconvDecoder(encoding: string): (chunk: Buffer, end: boolean) => string {
  const decoder = iconv.getDecoder(encoding);
  return (chunk, end) => decoder.write(chunk) + (end ? (decoder.end() ?? "") : "");
}

/**
 * Strict UTF-8 (the platform's `TextDecoder` with `fatal`, which also drops a UTF-8 byte order
 * mark), and where it fails, the line and offset of the first byte that is not UTF-8.
 */
class StrictUtf8 {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  /** Bytes before the current chunk. */
  private offset = 0;
  /** The line the current chunk starts on (line feeds so far + 1). */
  private line = 1;
  /** The last bytes before the current chunk: a character may have started there. */
  private tail = Buffer.alloc(0);

  constructor(private readonly name: string) {}

  decode(chunk: Buffer, end: boolean): string {
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: !end });
    } catch {
      throw this.locate(chunk, end);
    }
    this.line += countLineFeeds(chunk, 0, chunk.length);
    this.offset += chunk.length;
    // The last 3 bytes read, across chunks (a chunk may be shorter than a character).
    const recent = chunk.length >= 3 ? chunk : Buffer.concat([this.tail, chunk]);
    this.tail = Buffer.from(recent.subarray(Math.max(0, recent.length - 3)));
    return text;
  }

  /** The error for the first byte of `tail + chunk` that is not UTF-8. */
  private locate(chunk: Buffer, end: boolean): InputError {
    const bytes = Buffer.concat([this.tail, chunk]);
    const base = this.offset - this.tail.length;
    // Start on a character boundary: skip continuation bytes of a character already checked.
    let start = 0;
    while (start < this.tail.length && isContinuation(bytes[start])) start++;
    const fails = (length: number, stream: boolean): boolean => {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(start, length), { stream });
        return false;
      } catch {
        return true;
      }
    };
    /** The lead byte of the character still open before `at`. */
    const openLead = (at: number): number => {
      let lead = at - 1;
      while (lead > start && isContinuation(bytes[lead])) lead--;
      return lead;
    };
    let bad: number;
    if (fails(bytes.length, true)) {
      // The shortest prefix holding a byte that cannot be UTF-8 where it is.
      let low = start + 1;
      let high = bytes.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (fails(middle, true)) high = middle;
        else low = middle + 1;
      }
      bad = low - 1;
      // When that byte cut short a character begun before it, the character's lead is named.
      if (bad > start && fails(bad, false)) bad = openLead(bad);
    } else {
      // The input ends inside a character.
      bad = end ? openLead(bytes.length) : bytes.length - 1;
    }
    const line =
      bad >= this.tail.length
        ? this.line + countLineFeeds(bytes, this.tail.length, bad)
        : this.line - countLineFeeds(bytes, bad, this.tail.length);
    const byte = bytes[bad].toString(16).toUpperCase().padStart(2, "0");
    return new InputError(
      this.name,
      line,
      `byte 0x${byte} (offset ${base + bad} of the file) is not UTF-8`,
      {
        readingHint:
          ": the file is in another encoding (Excel on Windows writes windows-1252); name it with --encoding windows-1252 (or the file's encoding: latin1, utf-16le, shift_jis, …)",
      }
    );
  }
}

function isContinuation(byte: number): boolean {
  return byte >= 0x80 && byte <= 0xbf;
}

function countLineFeeds(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a, from); at >= 0 && at < to; at = bytes.indexOf(0x0a, at + 1)) {
    count++;
  }
  return count;
}
