import { SpellError } from "../errors/SpellError.js";

/**
 * A checkpoint file (`FileCheckpointStore`) holds something that is not a checkpoint: its first
 * line is not a checkpoint record (another file given by mistake), or a line other than a torn
 * last one (a kill mid-append) is not a record the engine writes. Thrown by `load()`, `records()`,
 * `acquireLease` and the first record of a run, before anything is sent or appended, so the file
 * is left as it is. The message names the file, the line and the problem, with at most a short
 * excerpt of the line.
 *
 * ## Example
 * ```ts
 * try { store.load(); } catch (error) { if (error instanceof CheckpointFileError) console.error(error.message); }
 * ```
 */
export class CheckpointFileError extends SpellError {
  static override readonly errorName: string = "CheckpointFileError";
  override name = "CheckpointFileError";

  /**
   * @param path the file
   * @param line the line (1-based)
   * @param problem what is wrong with it
   * @param excerpt the line's first characters
   */
  constructor(
    readonly path: string,
    readonly line: number,
    readonly problem: string,
    excerpt: string
  ) {
    super(
      `${path}, line ${line}: not a checkpoint record (${problem}): ${JSON.stringify(excerpt)}; ` +
        (line === 1 ? "is it the job's checkpoint file? " : "") +
        "the file was left as it is"
    );
  }
}
