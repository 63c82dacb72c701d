/** The `Excel` global of a mock workbook. */
import type { MockWorkbook } from "./mockWorkbook.js";
import { requestContext } from "./requestContext.js";
import type { SyncOperation } from "./syncOperation.js";
import { syncQueue } from "./syncQueue.js";
import type { WorkbookState } from "./workbookState.js";

/** `Excel` as the add-in uses it: `run` (each batch with its own queue), enums. */
export function excelNamespace(
  workbook: MockWorkbook,
  state: WorkbookState
): Record<string, unknown> {
  return {
    CalculationType: { full: "Full", recalculate: "Recalculate", fullRebuild: "FullRebuild" },
    SheetVisibility: { visible: "Visible", hidden: "Hidden", veryHidden: "VeryHidden" },
    run: async <T>(batch: (context: unknown) => Promise<T>): Promise<T> => {
      workbook.stats.runs++;
      const queue: SyncOperation[] = [];
      const context = requestContext(workbook, state, queue);
      const result = await batch(context);
      // Excel.run sends what is still queued when the batch returns.
      if (queue.length > 0) await syncQueue(workbook, state, queue);
      return result;
    },
  };
}
