import { SpellError } from "../errors/SpellError.js";

/**
 * A resumed job refused its rows: they are not the rows its checkpoint recorded, so their results
 * would go to other rows. Nothing more is sent or written in this run (a window sent before the
 * crash stays recorded; a resume with the right rows re-attaches to it). The usual cause: `rows` given
 * as "the rows still to do" while the engine expects every row from the one it asks for (pass
 * `rows` as a function of `fromRow` to read only those), or an input edited since the job began.
 *
 * ## Example
 * ```ts
 * if (result.error instanceof RowsChangedError) console.error(`row ${result.error.row + 1} changed`);
 * ```
 */
export class RowsChangedError extends SpellError {
  override name = "RowsChangedError";

  /**
   * @param window the window whose rows differ
   * @param row the first row that differs (0-based, in the job), or the window's first row when
   *   its size differs
   * @param detail what differs
   */
  constructor(
    readonly window: number,
    readonly row: number,
    detail: string
  ) {
    super(
      `The rows are not the ones this job started with: ${detail} (row ${row + 1} of the job, window ${window}). ` +
        "Resume with the same rows, from the row the engine asks for; nothing more was sent or written"
    );
  }
}
