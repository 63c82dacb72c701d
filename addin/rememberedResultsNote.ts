import type { ResultStoreLosses } from "./PersistentResultStore.js";

/**
 * What the task pane says when the remembered results' limits have cost something (see
 * `PersistentResultStore.losses`), or `undefined` when they have not: results this computer
 * paid for that a reload of the add-in (reopening the workbook) will run again, and runs still
 * going that a reload would start again. The spending guard still asks before many runs start.
 *
 * ## Example
 * ```ts
 * rememberedResultsNote({ resultsNotStored: 1200, startedRunsNotStored: 0, resultsForgotten: 0, writesRefused: 0 });
 * // "Storage for remembered results is full: 1,200 results …"
 * ```
 * @param losses what the store's limits cost so far
 * @return the note, or `undefined`
 */
export function rememberedResultsNote(losses: ResultStoreLosses): string | undefined {
  const parts: string[] = [];
  if (losses.resultsNotStored > 0) {
    parts.push(
      `${count(losses.resultsNotStored, "result")} no longer fit in this computer's storage: after Excel reloads the add-in they run again (and may cost again) when recalculated.`
    );
  }
  if (losses.resultsForgotten > 0) {
    parts.push(
      `${count(losses.resultsForgotten, "result")} did not fit in memory either: they run again at the next recalculation.`
    );
  }
  if (losses.startedRunsNotStored > 0) {
    parts.push(
      `${count(losses.startedRunsNotStored, "run")} in flight could not be remembered: reopening the workbook before they finish starts them again.`
    );
  }
  if (losses.writesRefused > 0) {
    parts.push(
      "This computer's storage refused to keep some of them (full, or unavailable): they are reused until Excel reloads the add-in."
    );
  }
  if (parts.length === 0) return undefined;
  return `Remembered results are at their limit. ${parts.join(" ")} The spending guard still asks before many runs start.`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
