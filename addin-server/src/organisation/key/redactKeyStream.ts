import { Transform } from "node:stream";

/**
 * A stream that copies an answer with every occurrence of the organisation's key replaced by as
 * many `*` (the same length, so a `Content-Length` stays right), also when the key is split
 * across chunks: a service echoing the key in an error body must not hand it to the browser.
 *
 * ## Example
 * ```ts
 * return payload.pipe(redactKeyStream(spellKey.current()));
 * ```
 *
 * @param key The key.
 * @return The transform.
 */
export function redactKeyStream(key: string): Transform {
  const needle = Buffer.from(key);
  const mask = Buffer.alloc(needle.length, "*");
  let held = Buffer.alloc(0);
  const masked = (bytes: Buffer) => {
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + mask.length)) {
      mask.copy(bytes, at);
    }
    return bytes;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const bytes = masked(Buffer.concat([held, chunk]));
      // Keep the last key-length-minus-one bytes: they may be the start of a split key.
      const keep = Math.min(bytes.length, needle.length - 1);
      held = Buffer.from(bytes.subarray(bytes.length - keep));
      done(null, bytes.subarray(0, bytes.length - keep));
    },
    flush(done) {
      done(null, held);
    },
  });
}
