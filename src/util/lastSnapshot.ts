import type { Observable } from "rxjs";
import { SpellError } from "../errors/SpellError.js";

/**
 * Subscribes to a stream and settles with its last value, telling `onProgress` of every value on
 * the way: the promise form of `run` and `bulk`. A stream that completes without a value rejects
 * with `SpellError`; an error of the stream rejects with that error.
 *
 * ## Example
 * ```ts
 * const snapshot = await lastSnapshot(client.run("echo", { a: 1 }), console.log);
 * ```
 * @param source the stream of snapshots
 * @param onProgress told of every value, if given
 * @return the last value
 */
export function lastSnapshot<T>(
  source: Observable<T>,
  onProgress: ((value: T) => void) | undefined
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let last: { value: T } | undefined;
    source.subscribe({
      next: (value) => {
        last = { value };
        onProgress?.(value);
      },
      error: reject,
      complete: () => {
        if (last) resolve(last.value);
        else reject(new SpellError("The run ended without a result"));
      },
    });
  });
}
