import { SpellHttpError } from "spellrun";
import { paneMessage } from "./paneMessage.js";

/**
 * The sentences the pane says when a bulk ends, one function per outcome (the controller decides
 * which; these only word it).
 *
 * ## Example
 * ```ts
 * settle("done", outcomeMessages.done("Sheet1", "B", "D", 0));
 * ```
 */
export const outcomeMessages = {
  /**
   * A complete bulk: where its results are (`first`..`last`, column letters), and the results
   * kept aside.
   */
  done: (sheet: string, first: string, last: string, kept: number): string =>
    `Results are in ${sheet}, ${first === last ? `column ${first}` : `columns ${first}–${last}`}.` +
    keptMessage(kept),
  /** The service no longer knows the bulk's groups: `rest` rows cannot be collected. */
  expired: (rest: number): string =>
    `The service no longer knows this bulk (its runs expired or were deleted), so the results ` +
    `of its ${rest} unfinished row${rest === 1 ? "" : "s"} cannot be collected. Forget it, or ` +
    `use Retry failed rows to run ${rest === 1 ? "it" : "them"} again (${rest} new run${rest === 1 ? "" : "s"}).`,
  /** Reading the groups failed: the bulk goes on at the service. */
  unfinished: (error: unknown): string =>
    `${describe(error)} The bulk goes on in the service: use Resume to collect its results.`,
  /**
   * The start was refused: nothing started. A spell the service does not know (HTTP 404 on
   * start or bulkStart) is said in the words the SPELL functions use for it, with the service's
   * own explanation when it gave one.
   */
  refused: (error: unknown, spellId: string): string => {
    if (
      error instanceof SpellHttpError &&
      error.status === 404 &&
      (error.endpoint === "start" || error.endpoint === "bulkStart")
    ) {
      const detail = error.serviceMessage === undefined ? "" : ` (${error.serviceMessage})`;
      return `Spell "${spellId}" was not found (HTTP 404)${detail}. Check the spell ID on the spell's API tab.`;
    }
    return describe(error);
  },
  /** The start got no answer and may have happened. */
  mayHaveStarted: (error: unknown): string =>
    `${describe(error)} The service may have started this bulk before its answer was lost: ` +
    "it is kept in this workbook. Check the rows' status cells; sending them again (Forget it, then Run) may pay for them twice.",
  /** A write to the sheet failed; `resumable` when the service named the bulk's groups. */
  writeFailed: (error: unknown, resumable: boolean): string =>
    `Could not write to the sheet: ${describe(error)}.` +
    (resumable ? " The bulk is kept in this workbook: Resume collects its results." : ""),
  /** Kept results written under the block. */
  keptWritten: (address: string): string => `Kept results written to ${address}.`,
};

function keptMessage(count: number): string {
  if (count === 0) return "";
  return (
    ` ${count} result${count === 1 ? "" : "s"} could not be placed: ${count === 1 ? "its row was" : "their rows were"} ` +
    `deleted or changed, or ${count === 1 ? "its" : "their"} output cells typed into, during the run. ` +
    "Nothing was written elsewhere; copy them with Copy kept results."
  );
}

function describe(error: unknown): string {
  return paneMessage(error); // the pane's own words for the shared errors (its Settings tab)
}
